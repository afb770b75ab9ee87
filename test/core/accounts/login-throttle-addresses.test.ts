import { expect } from 'chai';
import { LoginThrottle, MemoryWindowCounters } from '../../../core';
import { expectGatewayError } from '../../support/gateway-error-assertions';

/** Five failures per client address, many per email: only the address limit is in play. */
const throttle = () => new LoginThrottle({ failures: 100, addressFailures: 5, addressRegistrations: 1_000, windowMs: 60_000, counters: new MemoryWindowCounters() });

async function failFrom(subject: LoginThrottle, addresses: readonly string[]): Promise<void> {
  for (const [index, address] of addresses.entries()) await subject.attempt('login', `user${index}@example.com`, address);
}

describe('core/accounts LoginThrottle: which client addresses count as one', () => {
  it('counts an IPv6 client by its /64: a guesser cannot take a new address of its own network for each try', async () => {
    const subject = throttle();
    await failFrom(subject, ['2001:db8:1:2::1', '2001:db8:1:2::2', '2001:db8:1:2:0:0:0:3', '2001:db8:1:2:aaaa::4', '2001:DB8:1:2::5']);
    const error = await expectGatewayError(subject.attempt('login', 'other@example.com', '2001:db8:1:2:ffff:ffff:ffff:ffff'));
    expect(error.code).to.equal('TTS_ERR_RATE_LIMITED');
    // The next /64 is another client.
    await subject.attempt('login', 'other@example.com', '2001:db8:1:3::1');
  });

  it('counts an IPv4 client by its whole address, however it is written (IPv4-mapped IPv6 on a dual-stack socket)', async () => {
    const subject = throttle();
    await failFrom(subject, ['192.0.2.1', '::ffff:192.0.2.1', '192.0.2.1', '::ffff:c000:201', '192.0.2.1']);
    const error = await expectGatewayError(subject.attempt('login', 'other@example.com', '::FFFF:192.0.2.1'));
    expect(error.code).to.equal('TTS_ERR_RATE_LIMITED');
    await subject.attempt('login', 'other@example.com', '192.0.2.2');
  });

  it('counts what is no IP address (no socket address: unknown) as it is written', async () => {
    const subject = throttle();
    await failFrom(subject, Array.from({ length: 5 }, () => 'unknown'));
    await expectGatewayError(subject.attempt('login', 'other@example.com', 'unknown'));
    await subject.attempt('login', 'other@example.com', '2001:db8::1');
  });
});

describe('core/accounts LoginThrottle: registrations per client address', () => {
  const registrations = () => new LoginThrottle({ failures: 100, addressFailures: 100, addressRegistrations: 3, windowMs: 60_000, counters: new MemoryWindowCounters() });

  /** A registration that made its account. */
  async function register(subject: LoginThrottle, email: string, address: string): Promise<void> {
    await (await subject.attempt('register', email, address)).succeeded();
  }

  it('refuses the registration past the limit from one address, grouped as the login throttle groups addresses, with Retry-After', async () => {
    const subject = registrations();
    await register(subject, 'a@example.com', '2001:db8:1:2::1');
    await register(subject, 'b@example.com', '2001:db8:1:2::2');
    await register(subject, 'c@example.com', '2001:db8:1:2:aaaa::3');
    const error = await expectGatewayError(subject.attempt('register', 'd@example.com', '2001:db8:1:2:ffff::9'));
    expect([error.code, error.status, error.details]).to.deep.equal(['TTS_ERR_RATE_LIMITED', 429, [{ reason: 'too_many_registrations', action: 'register' }]]);
    expect(error.message).to.contain('too many registrations from this address');
    expect(error.retryAfterSeconds).to.be.within(1, 60);
    // Another /64, and logins from the same one, are not held back.
    await register(subject, 'd@example.com', '2001:db8:1:3::1');
    await (await subject.attempt('login', 'a@example.com', '2001:db8:1:2::1')).succeeded();
  });

  it('counts an IPv4 address and its IPv4-mapped form as one', async () => {
    const subject = registrations();
    await register(subject, 'a@example.com', '192.0.2.1');
    await register(subject, 'b@example.com', '::ffff:192.0.2.1');
    await register(subject, 'c@example.com', '192.0.2.1');
    await expectGatewayError(subject.attempt('register', 'd@example.com', '::ffff:c000:201'));
  });

  it('gives the registration back when no account was made (the client\'s fault, or the server\'s)', async () => {
    const subject = registrations();
    for (let attempt = 0; attempt < 3; attempt += 1) await (await subject.attempt('register', `taken${attempt}@example.com`, '192.0.2.7')).failed();
    for (let attempt = 0; attempt < 3; attempt += 1) await (await subject.attempt('register', `server${attempt}@example.com`, '192.0.2.7')).withdraw();
    for (let attempt = 0; attempt < 3; attempt += 1) await register(subject, `made${attempt}@example.com`, '192.0.2.7');
    await expectGatewayError(subject.attempt('register', 'one-more@example.com', '192.0.2.7'));
  });

  it('lets no more registrations through than the limit when they arrive at once', async () => {
    const subject = registrations();
    const answers = await Promise.allSettled(Array.from({ length: 10 }, (_, index) => subject.attempt('register', `user${index}@example.com`, '192.0.2.8')));
    expect(answers.filter((answer) => answer.status === 'fulfilled')).to.have.length(3);
  });
});
