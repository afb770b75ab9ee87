import { hashPassword, verifyPassword, type ScryptParameters } from './password-hashing';

/**
 * Checks a login's password so that an unknown email and a wrong password look the same: with
 * no account, the password is checked against a decoy hash, the same work in the same time.
 */
export class LoginPasswordCheck {
  private decoyHash: Promise<string> | undefined;

  constructor(
    private readonly scrypt: ScryptParameters,
    private readonly verify: (password: string, stored: string) => Promise<boolean> = verifyPassword,
  ) {}

  /** Hashes the decoy now, so that the first unknown-email login costs what every later one does. */
  prepare(): void {
    void this.decoy();
  }

  /** Whether the password matches the stored hash; always false without one (no such account). */
  async matches(password: string, storedHash: string | undefined): Promise<boolean> {
    return this.verify(password, storedHash ?? (await this.decoy()));
  }

  private decoy(): Promise<string> {
    this.decoyHash ??= hashPassword('decoy password never matches', this.scrypt);
    return this.decoyHash;
  }
}
