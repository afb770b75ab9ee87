/**
 * Replays recorded provider conversations (nock back format, one file per scenario under
 * test/fixtures/<plugin>/<scenario>.json) and captures what the plugin really sent, so a test
 * can assert both sides. Replay also checks the request headers each fixture recorded (`reqheaders`:
 * credentials by scheme, content type and API versions exactly). `NOCK_BACK_MODE=record`
 * re-records against the real API; the after-record hook keeps only those headers and scrubs the
 * credentials so no key reaches the repository.
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

/** Headers that carry a credential: recorded with the secret replaced by a placeholder. */
const CREDENTIAL_HEADERS = ['authorization', 'xi-api-key', 'ocp-apim-subscription-key', 'x-goog-api-key', 'x-amz-security-token', 'x-amz-date'];
/** Other headers a provider's API depends on: recorded and matched exactly on replay. */
const CONTRACT_HEADERS = ['content-type', 'x-microsoft-outputformat'];
/** The placeholder a recorded credential carries; its scheme (`Bearer `, `Token `) is kept. */
export const CREDENTIAL_PLACEHOLDER = 'test-credential';

type RecordedDefinition = Definition & { reqheaders?: Record<string, string>; badheaders?: string[] };

const mattersOnReplay = (name: string) => CREDENTIAL_HEADERS.includes(name) || CONTRACT_HEADERS.includes(name) || name.endsWith('-version');

/** `Bearer sk-...` -> `Bearer test-credential`; a bare key -> `test-credential`. */
function scrubbedCredential(value: string): string {
  const scheme = /^([A-Za-z][A-Za-z0-9-]*) \S/.exec(value)?.[1];
  return scheme ? `${scheme} ${CREDENTIAL_PLACEHOLDER}` : CREDENTIAL_PLACEHOLDER;
}

/**
 * Keeps only the recorded request headers that matter (credentials, content type, API
 * versions), with each credential's secret replaced by a placeholder.
 */
export function scrubCredentials(definitions: Definition[]): Definition[] {
  return definitions.map((definition) => {
    const headers = (definition as RecordedDefinition).reqheaders;
    if (!headers) return definition;
    const kept = Object.entries(headers)
      .map(([name, value]) => [name.toLowerCase(), String(value)] as const)
      .filter(([name]) => mattersOnReplay(name))
      .map(([name, value]) => [name, CREDENTIAL_HEADERS.includes(name) ? scrubbedCredential(value) : value]);
    return { ...definition, reqheaders: Object.fromEntries(kept) } as Definition;
  });
}

/**
 * How a recorded header is matched on replay: a credential by its scheme and a non-empty secret
 * (test keys differ from the recorded one), anything else exactly.
 */
function headerMatcher(recorded: string): (value: unknown) => boolean {
  if (!recorded.endsWith(CREDENTIAL_PLACEHOLDER)) return (value) => value !== undefined && String(value) === recorded;
  const scheme = recorded.slice(0, -CREDENTIAL_PLACEHOLDER.length);
  return (value) => value !== undefined && String(value).startsWith(scheme) && String(value).trim().length > scheme.trim().length;
}

/** Turns a fixture's recorded headers into matchers, so a request without them is not answered. */
function matchRecordedHeaders(definition: Definition): Definition {
  const recorded = definition as RecordedDefinition;
  if (!recorded.reqheaders) return definition;
  const matchers = Object.fromEntries(Object.entries(recorded.reqheaders).map(([name, value]) => [name, headerMatcher(String(value))]));
  return Object.assign(definition, { reqheaders: matchers });
}

/** Loads `test/fixtures/<plugin>/<scenario>.json` and starts capturing requests. */
export async function replayFixture(plugin: string, scenario: string): Promise<FixtureReplay> {
  const mode = (process.env.NOCK_BACK_MODE ?? 'lockdown') as BackMode;
  nock.back.fixtures = join(fixturesRoot, plugin);
  nock.back.setMode(mode);
  const requests: CapturedRequest[] = [];
  const { nockDone, context } = await nock.back(`${scenario}.json`, {
    // The recorded headers that matter must be sent again: a plugin that drops its auth header,
    // content type or API version gets no answer. Tests assert exact values on `requests`.
    before: matchRecordedHeaders,
    afterRecord: (definitions) => scrubCredentials(definitions),
    recorder: { enable_reqheaders_recording: true },
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
