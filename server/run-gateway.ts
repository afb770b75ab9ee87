import type { ServerResponse } from 'node:http';
import { loadConfig } from '../config';
import { TurnoverTable } from '../core';
import { composeGateway, type ComposeOptions, type Gateway } from './composition-root';
import { gatewayArgumentProblem } from './gateway-arguments';
import { createGatewayServer } from './gateway-server';
import { logFatalErrors } from './fatal-errors';
import { describeListenError, listen } from './listen';
import { MALLOC_TUNING, missingMallocTuning } from './malloc-tuning';
import { describeStartupError } from './startup-error';
import { unexpectedErrorFields } from './unexpected-error';
import { markCutByStop } from './unfinished-answer';
import { recordUnreadRefusals } from './unread-refusals';
import { TOKENS } from './container-tokens';
import type { PrometheusMetrics } from './metrics/prometheus-metrics';

export interface RunGatewayOptions {
  readonly argv: readonly string[];
  readonly env: NodeJS.ProcessEnv;
  /** Where one-line start-up failures go. */
  readonly stderr: NodeJS.WritableStream;
  /** Ends the process; tests never reach it (they spawn). */
  readonly exit: (code: number) => never;
  /** Shorter time limits of the plugins' `create()` and `close()`, for tests; see ComposeOptions. */
  readonly pluginTimeLimits?: ComposeOptions['pluginTimeLimits'];
}

/** Time given to requests in flight beyond the synthesis deadline before connections are cut. */
const DRAIN_GRACE_MS = 5_000;

/**
 * Runs the gateway until SIGTERM or SIGINT: config -> composition -> a bound port, then
 * "listening", while provider warm-ups finish. A start-up, bind or warm-up failure is one line
 * on stderr and exit status 1. A stop refuses new connections, lets requests in flight finish
 * (up to the synthesis deadline plus a grace), closes everything and exits 0; a second signal
 * exits at once. A signal during start-up lets the step under way end (a migration is not cut
 * midway), closes what was opened, and exits 0 without serving.
 */
export async function runGateway(options: RunGatewayOptions): Promise<void> {
  const fail = (message: string): never => {
    options.stderr.write(`tts-gateway could not start: ${message}\n`);
    return options.exit(1);
  };
  const argumentProblem = gatewayArgumentProblem(options.argv);
  if (argumentProblem) return fail(argumentProblem);
  // Heard from the first moment: Node's default would end the process in the middle of a step.
  let signalWhileStarting: NodeJS.Signals | undefined;
  let onSignal = (signal: NodeJS.Signals): void => {
    if (signalWhileStarting) options.exit(1);
    signalWhileStarting = signal;
  };
  process.on('SIGINT', () => onSignal('SIGINT'));
  process.on('SIGTERM', () => onSignal('SIGTERM'));
  let gateway: Gateway;
  try {
    gateway = await composeGateway(await loadConfig({ argv: options.argv, env: options.env }), { pluginTimeLimits: options.pluginTimeLimits });
  } catch (error) {
    return fail(describeStartupError(error));
  }
  const { config, logger } = gateway;
  logFatalErrors(logger, options.exit);
  if (signalWhileStarting) {
    logger.info('stopped during start-up: not serving', { signal: signalWhileStarting });
    await gateway.close().catch(() => undefined);
    return options.exit(0);
  }
  // Not a Set: see TurnoverTable (a Set of the responses in flight made every request outlive itself).
  const inFlight = new TurnoverTable<ServerResponse>();
  let responsesSeen = 0;
  let stopping = false;
  // Requests and responses are born with Express's prototypes: its per-request swap is then free.
  // The connection limits (server.maxConnections, timeouts) hold from the first connection.
  const server = createGatewayServer(gateway.app, config.server, recordUnreadRefusals(logger, gateway.container.resolve<PrometheusMetrics>(TOKENS.metrics)));
  // Ahead of the app's own listener: the app may answer at once (a health check, a 404), and a
  // header set after its answer would throw out of the HTTP parser and end the process.
  server.prependListener('request', (request, response: ServerResponse) => {
    // During a stop, each answer closes its connection, so keep-alive clients reconnect elsewhere.
    if (stopping && !response.headersSent) response.setHeader('Connection', 'close');
    const id = (responsesSeen += 1);
    inFlight.set(id, response);
    response.once('close', () => inFlight.delete(id));
  });
  try {
    const address = await listen(server, config.server.port, config.server.host);
    const base = config.server.publicBaseUrl ?? `http://localhost:${address.port}`;
    logger.info('tts-gateway listening', { host: config.server.host, port: address.port, publicBaseUrl: base, config: config.sourceFile ?? '(defaults)' });
  } catch (error) {
    await gateway.close().catch(() => undefined);
    return fail(describeListenError(error, config.server.host, config.server.port));
  }
  server.on('error', (error) => logger.error('the HTTP server failed', { errorMessage: error.message }));
  // The gateway answers while providers warm up (/health/ready waits for them); a failed warm-up
  // (an unknown default voice) is still a failed start: one line, exit status 1.
  gateway.warmedUp.catch(async (error: unknown) => {
    stopping = true;
    server.close();
    server.closeAllConnections();
    await gateway.close().catch(() => undefined);
    fail(describeStartupError(error));
  });
  if (config.server.trustProxy === true) {
    // Every hop believed: the left-most X-Forwarded-For, which the client writes, is its address.
    logger.warn('server.trustProxy is true: a client can choose the address its login attempts are counted under; set the number of proxies in front (1) or their addresses', {
      setting: 'server.trustProxy',
    });
  }
  const untuned = missingMallocTuning(options.env);
  if (untuned.length > 0) {
    const settings = Object.entries(MALLOC_TUNING).map(([name, value]) => `${name}=${value}`).join(' ');
    logger.info('glibc malloc is not tuned: memory freed after a burst may stay with the process', { unset: untuned, hint: `npm start sets ${settings}` });
  }

  const stop = (signal: NodeJS.Signals) => {
    if (stopping) {
      logger.warn('second signal: exiting without waiting', { signal });
      options.exit(1);
    }
    stopping = true;
    const drainMs = config.synthesis.timeoutMs + DRAIN_GRACE_MS;
    gateway.markStopping();
    for (const response of inFlight.values()) if (!response.headersSent) response.setHeader('Connection', 'close');
    const deadline = setTimeout(() => {
      logger.warn('drain deadline passed: closing the remaining connections', { inFlight: inFlight.size });
      for (const response of inFlight.values()) markCutByStop(response);
      server.closeAllConnections();
    }, drainMs);
    server.close(() => {
      clearTimeout(deadline);
      void gateway
        .close()
        .catch((error: unknown) => logger.error('closing failed', unexpectedErrorFields(error)))
        .finally(() => {
          logger.info('stopped');
          options.exit(0);
        });
    });
    server.closeIdleConnections();
    // Logged once the port is closed: from this line on, new connections are refused.
    logger.info('shutting down', { signal, inFlight: inFlight.size, drainSeconds: drainMs / 1000 });
  };
  onSignal = stop;
  // A signal while the port was being bound: the stop of a gateway with nothing in flight.
  if (signalWhileStarting) stop(signalWhileStarting);
}
