import { expect } from 'chai';
import { LoginThrottle, MemoryWindowCounters } from '../../../core';
import { expectGatewayError } from '../../support/gateway-error-assertions';

/** Five failures per client address, many per email: only the address limit is in play. */
const throttle = () => new LoginThrottle({ failures: 100, addressFailures: 5, windowMs: 60_000, counters: new MemoryWindowCounters() });

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
