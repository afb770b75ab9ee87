import type { GatewayError } from '../../core';
import { expectGatewayError } from './gateway-error-assertions';
import { replayFixture } from './nock-fixtures';

/**
 * Replays the recorded scenario test/fixtures/<plugin>/<scenario>.json around `call` and returns
 * the GatewayError the call fails with (with `code`, when given). Also asserts that every
 * recorded request was made.
 */
export async function expectScenarioFailure(plugin: string, scenario: string, call: () => Promise<unknown>, code?: string): Promise<GatewayError> {
  const replay = await replayFixture(plugin, scenario);
  try {
    return await expectGatewayError(call(), code);
  } finally {
    replay.done();
  }
}
