export type {
  AccountActivity,
  AccountLimits,
  AccountLimitsUpdate,
  AccountRecord,
  AccountStore,
  ActivityPart,
  ActivitySender,
  ApiKeyRecord,
  CappedKeyResult,
  CreateAccountResult,
  DailyUsageRecord,
  FailedUsageRecord,
  KeyCap,
  UsageRecord,
} from './account-store';
export { buildUsageReport, usageDays, type UsageRange, type UsageReport, type UsageTotals } from './usage-report';
export { utcDay, msUntilNextUtcDay } from './utc-day';
export { AccountOperator } from './account-operator';
export { SqliteAccountStore, type SqliteAccountStoreOptions } from './sqlite-account-store';
export { SQLITE_MIGRATIONS, type Migration } from './migrations';
export { createAccountStore, openAccountStore, type AccountStoreOptions } from './create-account-store';
export { PostgresAccountStore, type PostgresAccountStoreOptions } from './postgres-account-store';
export { POSTGRES_MIGRATIONS } from './postgres-migrations';
export { migratePostgres, MIGRATION_LOCK_KEY } from './postgres-migrate';
export { API_KEY_PREFIX, hashApiKey, looksLikeApiKey, mintApiKey, type MintedApiKey } from './api-key';
export { DEFAULT_SCRYPT_PARAMETERS, hashPassword, verifyPassword, type ScryptParameters } from './password-hashing';
export {
  AccountService,
  type AccountServiceOptions,
  type ApiKeySummary,
  type AuthenticatedKey,
  type IssuedApiKey,
  type PublicAccount,
  type UsageInput,
} from './account-service';
export { ApiKeyCache, type ApiKeyCacheOptions, type CachedKey } from './api-key-cache';
export type { KeyRevocations } from './key-revocations';
export { DEFAULT_MAX_KEYS_PER_ACCOUNT, isKeyCapReached } from './key-cap';
export { LoginThrottle, type CredentialAction, type LoginThrottleOptions, type ThrottledAttempt } from './login-throttle';
