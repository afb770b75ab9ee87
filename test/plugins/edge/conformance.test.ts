import { describeProviderConformance } from '../../../core/testing';
import edgePlugin, { type EdgeOptions } from '../../../plugins/edge';
import { EdgeStandIn } from './stand-in';

/**
 * Synthesis goes over a WebSocket, not `context.fetch`, so the suite's HTTP error mapping does
 * not apply (errors.test.ts covers refusals, timeouts and cancellation against the stand-in); the
 * streaming checks hold the stand-in's socket answers instead of fetch answers. The options point
 * at a stand-in started before mocha runs the suite's hooks.
 */
describe('edge plugin: conformance against the local stand-in', () => {
  const options: { -readonly [Key in keyof EdgeOptions]: EdgeOptions[Key] } = {
    baseUrl: 'ws://127.0.0.1:1/unset',
    voicesUrl: 'http://127.0.0.1:1/unset',
    timeoutMs: 5000,
    clientVersion: '143.0.3650.96',
    trustedClientToken: '6A5AA1D4EAFF4E9FB37E23D68491D6F4',
  };
  let standIn: EdgeStandIn;
  before(async () => {
    standIn = await EdgeStandIn.start();
    options.baseUrl = standIn.socketUrl;
    options.voicesUrl = standIn.voicesUrl;
  });
  after(() => standIn.close());

  const streamingStandIn = { holdNextAnswer: () => standIn.holdNextAnswer() };
  describeProviderConformance({ plugin: edgePlugin, options, fetch, httpErrorMapping: false, streamingStandIn });
});
