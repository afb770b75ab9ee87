import type Database from 'better-sqlite3';
import type { AccountLimits, AccountLimitsUpdate } from './account-store';

interface LimitsRow {
  requests_per_minute: number | null;
  characters_per_day: number | null;
}

/** The per-account limit override columns of `accounts` (null = the config's default). */
export class SqliteAccountLimits {
  constructor(private readonly database: Database.Database) {}

  get(accountId: string): AccountLimits {
    const row = this.database.prepare('SELECT requests_per_minute, characters_per_day FROM accounts WHERE id = ?').get(accountId) as LimitsRow | undefined;
    return {
      ...(row?.requests_per_minute != null && { requestsPerMinute: row.requests_per_minute }),
      ...(row?.characters_per_day != null && { charactersPerDay: row.characters_per_day }),
    };
  }

  set(accountId: string, limits: AccountLimitsUpdate): boolean {
    const result = this.database
      .prepare(
        `UPDATE accounts SET
           requests_per_minute = CASE WHEN @setRequests THEN @requestsPerMinute ELSE requests_per_minute END,
           characters_per_day = CASE WHEN @setCharacters THEN @charactersPerDay ELSE characters_per_day END
         WHERE id = @accountId`,
      )
      .run({
        accountId,
        setRequests: limits.requestsPerMinute === undefined ? 0 : 1,
        requestsPerMinute: limits.requestsPerMinute ?? null,
        setCharacters: limits.charactersPerDay === undefined ? 0 : 1,
        charactersPerDay: limits.charactersPerDay ?? null,
      });
    return result.changes === 1;
  }
}
