import express from 'express';
import type { AppDependencies } from './app-dependencies';
import { accessLog } from './middleware/access-log';
import { requireApiKey } from './middleware/api-key-auth';
import { errorHandler } from './middleware/error-handler';
import { jsonBody } from './middleware/json-body';
import { notFound } from './middleware/not-found';
import { requestId } from './middleware/request-id';
import { limitSynthesis } from './middleware/synthesis-limits';
import { validateBody } from './middleware/validate-body';
import { createAudioRoutes } from './routes/audio-routes';
import { createAuthRoutes } from './routes/auth-routes';
import { createToolsRoutes } from './routes/tools-routes';
import { createTtsRoutes } from './routes/tts-routes';
import { createUsageRoutes } from './routes/usage-routes';
import { createOpenAiRouter } from './openai/openai-router';
import { SPEECH_SCHEMA } from './openai/speech-schema';
import { createRequestAjv } from './validation/ajv-instance';
import { checkSynthesisText } from './validation/synthesis-text';
import { CREATE_KEY_SCHEMA, LOGIN_SCHEMA, REGISTER_SCHEMA, TTS_SYNC_SCHEMA } from './validation/request-schemas';

/** The HTTP API as a route table; every piece is built from `dependencies`, nothing is global. */
export function createApp(dependencies: AppDependencies): express.Application {
  const { config, logger, accounts, audioStore } = dependencies;
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('trust proxy', config.server.trustProxy);

  const ajv = createRequestAjv();
  const body = (schema: object) => [jsonBody(config.server.bodyLimitBytes), validateBody(ajv.compile(schema))];
  const apiKey = requireApiKey(accounts);
  const auth = createAuthRoutes(accounts, dependencies.loginThrottle);
  const usage = createUsageRoutes(accounts);
  // Limits count the text's characters, so the text is checked (400) before anything is counted.
  const ttsLimits = limitSynthesis(dependencies.limiter, (request) => checkSynthesisText((request.body as { text: string }).text));
  const speechLimits = limitSynthesis(dependencies.limiter, (request) => checkSynthesisText((request.body as { input: string }).input, 'input'));
  const tts = createTtsRoutes({ accounts, synthesize: dependencies.synthesize, stream: dependencies.stream, logger, publicBaseUrl: config.server.publicBaseUrl });
  const tools = createToolsRoutes(dependencies.listModels, dependencies.listVoices);
  const audio = createAudioRoutes(audioStore);
  const downloadGuard = config.storage.downloadRequiresKey ? [apiKey] : [];

  app.use(requestId(), accessLog(logger));

  app.post('/api/v1/auth/register', ...body(REGISTER_SCHEMA), auth.register);
  app.post('/api/v1/auth/login', ...body(LOGIN_SCHEMA), auth.login);
  app.get('/api/v1/auth/keys', apiKey, auth.listKeys);
  app.post('/api/v1/auth/keys', apiKey, ...body(CREATE_KEY_SCHEMA), auth.createKey);
  app.delete('/api/v1/auth/keys/:id', apiKey, auth.revokeKey);

  app.post('/api/v1/common/tts-sync', apiKey, ...body(TTS_SYNC_SCHEMA), ttsLimits, tts.synthesize);
  app.post('/api/v1/common/tts-stream', apiKey, ...body(TTS_SYNC_SCHEMA), ttsLimits, tts.stream);
  app.get('/api/v1/usage', apiKey, usage.usage);
  app.get('/api/v1/tools/models', apiKey, tools.models);
  app.get('/api/v1/tools/voices/:model', apiKey, tools.voices);
  // GET routes answer HEAD too.
  app.get('/api/v1/audio/download/:file', ...downloadGuard, audio.download);

  app.use('/v1', createOpenAiRouter({ dependencies, logger, apiKey, speechBody: [...body(SPEECH_SCHEMA), speechLimits] }));

  app.use(notFound());
  app.use(errorHandler(logger));
  return app;
}
