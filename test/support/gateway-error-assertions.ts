import { expect } from 'chai';
import { isGatewayError, type GatewayError } from '../../core';

/**
 * Awaits a promise that must reject with a GatewayError (with `code`, when given) and returns
 * that error for further checks. Fails the test when the promise resolves or rejects with
 * anything else.
 */
export async function expectGatewayError(promise: Promise<unknown>, code?: string): Promise<GatewayError> {
  try {
    await promise;
  } catch (error) {
    expect(isGatewayError(error), `expected a GatewayError, got ${String(error)}`).to.equal(true);
    if (code !== undefined) expect((error as GatewayError).code).to.equal(code);
    return error as GatewayError;
  }
  expect.fail(`expected a GatewayError${code === undefined ? '' : ` ${code}`}, but the call succeeded`);
}
