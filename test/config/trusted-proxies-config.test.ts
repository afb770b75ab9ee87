import { expect } from 'chai';
import { ConfigError } from '../../config';
import { loadYaml, rejection } from './config-test-helpers';

const EXPECTED = 'the number of proxies in front of the gateway (1), their addresses or ranges (10.0.0.1, 10.0.0.0/8, loopback), true or false';

describe('config: server.trustProxy, which proxies in front are believed', () => {
  it('is false by default, and takes true or false', async () => {
    expect((await loadYaml('server:\n  port: 8080\n')).server.trustProxy).to.equal(false);
    expect((await loadYaml('server:\n  trustProxy: true\n')).server.trustProxy).to.equal(true);
  });

  it('takes the number of proxies in front, so that what a client writes into X-Forwarded-For itself is not believed', async () => {
    expect((await loadYaml('server:\n  trustProxy: 1\n')).server.trustProxy).to.equal(1);
    expect((await loadYaml('server:\n  trustProxy: 2\n')).server.trustProxy).to.equal(2);
  });

  it("takes the proxies' addresses and ranges, as a list or one comma-separated string", async () => {
    const listed = await loadYaml('server:\n  trustProxy:\n    - 10.0.0.0/8\n    - 192.168.1.7\n    - fd00::/8\n    - loopback\n    - 172.16.0.0/255.240.0.0\n');
    expect(listed.server.trustProxy).to.deep.equal(['10.0.0.0/8', '192.168.1.7', 'fd00::/8', 'loopback', '172.16.0.0/255.240.0.0']);
    expect((await loadYaml('server:\n  trustProxy: "loopback, 10.0.0.1"\n')).server.trustProxy).to.deep.equal(['loopback', '10.0.0.1']);
  });

  it('reads an interpolated value as the number, boolean or addresses it spells', async () => {
    const yaml = 'server:\n  trustProxy: ${TRUST_PROXY}\n';
    expect((await loadYaml(yaml, { TRUST_PROXY: '1' })).server.trustProxy).to.equal(1);
    expect((await loadYaml(yaml, { TRUST_PROXY: 'false' })).server.trustProxy).to.equal(false);
    expect((await loadYaml(yaml, { TRUST_PROXY: 'true' })).server.trustProxy).to.equal(true);
    expect((await loadYaml(yaml, { TRUST_PROXY: '10.1.2.3' })).server.trustProxy).to.deep.equal(['10.1.2.3']);
  });

  it('refuses a host name, a bad range, zero, an empty list and any other word, saying what it takes', async () => {
    for (const value of ['proxy.example.com', '10.0.0.0/33', '10.0.0.300', 'yes', '"10.0.0.1, nginx"']) {
      const error = (await rejection(loadYaml(`server:\n  trustProxy: ${value}\n`))) as ConfigError;
      expect(error, value).to.be.instanceOf(ConfigError);
      expect(error.problems, value).to.deep.equal([`server.trustProxy: must be ${EXPECTED}`]);
    }
    const listed = (await rejection(loadYaml('server:\n  trustProxy:\n    - 10.0.0.1\n    - nginx\n    - "true"\n    - "1"\n'))) as ConfigError;
    const entry = "must be a proxy's address or range (10.0.0.1, 10.0.0.0/8, fd00::/8, loopback)";
    expect(listed.problems).to.deep.equal([`server.trustProxy[1]: ${entry}`, `server.trustProxy[2]: ${entry}`, `server.trustProxy[3]: ${entry}`]);
    const zero = (await rejection(loadYaml('server:\n  trustProxy: 0\n'))) as ConfigError;
    expect(zero.problems.join('\n')).to.include('server.trustProxy').and.include('>= 1');
    const empty = (await rejection(loadYaml('server:\n  trustProxy: []\n'))) as ConfigError;
    expect(empty.problems.join('\n')).to.include('server.trustProxy');
  });
});
