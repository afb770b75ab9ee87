/**
 * Replays recorded provider conversations (nock back format, one file per scenario under
 * test/fixtures/<plugin>/<scenario>.json) and captures what the plugin really sent, so a test
 * can assert both sides. `NOCK_BACK_MODE=record` re-records against the real API; the
 * after-record hook scrubs credentials so no key reaches the repository.
 */
import { join } from 'node:path';
import nock, { type BackMode, type Definition } from 'nock';
import { fixturesRoot } from './paths';

export interface CapturedRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

export interface FixtureReplay {
  /** Every request the plugin made, in order. */
  readonly requests: CapturedRequest[];
  /** Asserts every recorded call was made, then restores nock. */
  done(): void;
}

const CREDENTIAL_HEADERS = ['authorization', 'xi-api-key', 'ocp-apim-subscription-key', 'x-goog-api-key', 'x-amz-security-token', 'x-amz-date'];

/** Replaces credential header values in recorded definitions with a placeholder. */
export function scrubCredentials(definitions: Definition[]): Definition[] {
  return definitions.map((definition) => {
    const headers = (definition as Definition & { reqheaders?: Record<string, string> }).reqheaders;
    if (!headers) return definition;
    const scrubbed = Object.fromEntries(
      Object.entries(headers).map(([name, value]) => [name, CREDENTIAL_HEADERS.includes(name.toLowerCase()) ? 'test-credential' : value]),
    );
    return { ...definition, reqheaders: scrubbed } as Definition;
  });
}

/** Loads `test/fixtures/<plugin>/<scenario>.json` and starts capturing requests. */
export async function replayFixture(plugin: string, scenario: string): Promise<FixtureReplay> {
  const mode = (process.env.NOCK_BACK_MODE ?? 'lockdown') as BackMode;
  nock.back.fixtures = join(fixturesRoot, plugin);
  nock.back.setMode(mode);
  const requests: CapturedRequest[] = [];
  const { nockDone, context } = await nock.back(`${scenario}.json`, {
    // Request headers are not matched on replay (keys differ); tests assert them on `requests`.
    before: (definition) => {
      delete (definition as Definition & { reqheaders?: unknown }).reqheaders;
      return definition;
    },
    afterRecord: (definitions) => scrubCredentials(definitions),
  });
  for (const scope of context.scopes) {
    scope.on('request', (request: { method?: string; path?: string; headers?: Record<string, unknown>; getHeaders?: () => Record<string, unknown> }, _interceptor: unknown, body: string) => {
      const rawHeaders = request.getHeaders ? request.getHeaders() : request.headers ?? {};
      const headers = Object.fromEntries(Object.entries(rawHeaders).map(([name, value]) => [name.toLowerCase(), String(value)]));
      requests.push({ method: request.method ?? '', path: request.path ?? '', headers, body: body ?? '' });
    });
  }
  return {
    requests,
    done: () => {
      try {
        if (mode === 'lockdown') context.assertScopesFinished();
      } finally {
        nockDone();
        nock.back.setMode('wild');
        nock.disableNetConnect();
        nock.enableNetConnect((host) => host.startsWith('127.0.0.1') || host.startsWith('localhost'));
      }
    },
  };
}
