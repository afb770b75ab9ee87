import express from 'express';
import { API_ROUTES, type ApiRouteId } from './api/api-routes';
import { OPENAI_ROUTES } from './api/openai-routes';
import { registerRoutes, type RouteHandler } from './api/register-routes';
import type { AppDependencies, SynthesisRequest } from './app-dependencies';
import { accessLog } from './middleware/access-log';
import { requireApiKey } from './middleware/api-key-auth';
import { corsPolicy } from './middleware/cors-policy';
import { errorHandler } from './middleware/error-handler';
import { httpMetrics } from './middleware/http-metrics';
import { inSequence } from './middleware/in-sequence';
import { jsonBody } from './middleware/json-body';
import { lookAhead } from './middleware/look-ahead';
import { notFound } from './middleware/not-found';
import { refuseOversizedBody } from './middleware/refuse-oversized-body';
import { requestId } from './middleware/request-id';
import { securityHeaders } from './middleware/security-headers';
import { limitSynthesis } from './middleware/synthesis-limits';
import { validateBody } from './middleware/validate-body';
import { renderOpenAiError } from './openai/openai-error';
import { createOpenAiRouter } from './openai/openai-router';
import { speechSynthesisRequest } from './openai/speech-route';
import type { SpeechBody } from './openai/speech-schema';
import { buildOpenApiDocument } from './openapi/build-openapi-document';
import { createDocsPage } from './openapi/docs-page';
import { createOperationsRoutes } from './operations/operations-routes';
import { GATEWAY_VERSION } from './package-info';
import { createPlaygroundPage } from './playground/playground-page';
import { createAudioRoutes } from './routes/audio-routes';
import { createAuthRoutes } from './routes/auth-routes';
import { createToolsRoutes } from './routes/tools-routes';
import { createTtsRoutes, ttsSynthesisRequest } from './routes/tts-routes';
import { createUsageRoutes } from './routes/usage-routes';
import { createRequestAjv } from './validation/ajv-instance';
import { checkSynthesisText } from './validation/synthesis-text';

/**
 * The HTTP API: the routes of API_ROUTES and OPENAI_ROUTES with their handlers, plus the
 * operator's pages; every piece is built from `dependencies`, nothing is global.
 */
export function createApp(dependencies: AppDependencies): express.Application {
  const { config, logger, accounts, audioStore, metrics } = dependencies;
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('trust proxy', config.server.trustProxy);

  const ajv = createRequestAjv();
  const body = (schema: object) => [jsonBody(config.server.bodyLimitBytes), validateBody(ajv.compile(schema))];
  const apiKey = requireApiKey(accounts);
  const auth = createAuthRoutes(accounts, dependencies.loginThrottle);
  const usage = createUsageRoutes(accounts);
  // Limits count the text's characters, so the text is checked (400) before anything is counted;
  // the result cache's lookup starts beside the check.
  const ttsLimits = limitSynthesis(
    dependencies.limiter,
    (request) => checkSynthesisText((request.body as { text: string }).text),
    lookAhead(dependencies.lookUpResult, (request) => ttsSynthesisRequest(request.body as SynthesisRequest)),
  );
  const speechLimits = limitSynthesis(
    dependencies.limiter,
    (request) => checkSynthesisText((request.body as { input: string }).input, 'input'),
    lookAhead(dependencies.lookUpResult, (request) => speechSynthesisRequest(request.body as SpeechBody)),
  );
  const tts = createTtsRoutes({ accounts, synthesize: dependencies.synthesize, stream: dependencies.stream, logger, publicBaseUrl: config.server.publicBaseUrl });
  const tools = createToolsRoutes(dependencies.listModels, dependencies.listVoices);
  const audio = createAudioRoutes(audioStore, { readTimeoutMs: config.storage.readTimeoutMs });
  const operations = createOperationsRoutes({ readiness: dependencies.readiness, metrics, metricsToken: config.metrics.token, logger });

  const cors = corsPolicy(config.server.cors);
  // What every request passes through, as one middleware. The oversized-body refusal comes
  // after CORS, so that a browser can read it.
  app.use(
    inSequence([
      requestId(),
      accessLog(logger),
      httpMetrics(metrics),
      securityHeaders(),
      ...(cors ? [cors] : []),
      refuseOversizedBody(config.server.bodyLimitBytes),
    ]),
  );

  const handlers: Record<ApiRouteId, RouteHandler | readonly RouteHandler[]> = {
    register: auth.register,
    login: auth.login,
    listKeys: auth.listKeys,
    createKey: auth.createKey,
    revokeKey: auth.revokeKey,
    synthesize: [ttsLimits, tts.synthesize],
    streamSpeech: [ttsLimits, tts.stream],
    usage: usage.usage,
    listModels: tools.models,
    listVoices: tools.voices,
    downloadAudio: audio.download,
    liveness: operations.liveness,
    readiness: operations.readiness,
  };
  // First: a /v1 request then skips matching every /api/v1 route (the two trees share no path).
  app.use('/v1', createOpenAiRouter({ dependencies, logger, apiKey, body, speechLimits }));
  registerRoutes(app, API_ROUTES, {
    handlers,
    guards: { key: [apiKey], public: [], download: config.storage.downloadRequiresKey ? [apiKey] : [] },
    body,
  });

  // Operator pages, outside the API description: the description itself, its docs page, the playground, metrics.
  const openApi = buildOpenApiDocument(
    { ...API_ROUTES, ...OPENAI_ROUTES },
    { version: GATEWAY_VERSION, publicBaseUrl: config.server.publicBaseUrl, downloadRequiresKey: config.storage.downloadRequiresKey },
  );
  const docs = createDocsPage();
  app.get('/openapi.json', (request, response) => void response.setHeader('Cache-Control', 'no-cache').json(openApi));
  app.get('/docs', docs.page);
  app.get('/docs/docs.js', docs.initializer);
  app.get('/docs/assets/:file', docs.asset);
  const playground = createPlaygroundPage();
  app.get('/', playground.page);
  app.get('/playground/playground.js', playground.script);
  app.get('/playground/playground.css', playground.styles);
  if (config.metrics.enabled) app.get('/metrics', operations.metrics);

  app.use(notFound());
  // An error raised before the /v1 router (the oversized-body refusal) skips it: OpenAI's shape still.
  app.use('/v1', errorHandler(logger, renderOpenAiError));
  app.use(errorHandler(logger));
  return app;
}
