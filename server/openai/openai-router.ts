import express, { type RequestHandler } from 'express';
import type { Logger } from 'winston';
import type { AppDependencies } from '../app-dependencies';
import { errorHandler } from '../middleware/error-handler';
import { notFound } from '../middleware/not-found';
import { createModelRoutes } from './model-routes';
import { renderOpenAiError } from './openai-error';
import { createSpeechRoute } from './speech-route';

export interface OpenAiRouterOptions {
  readonly dependencies: AppDependencies;
  readonly logger: Logger;
  readonly apiKey: RequestHandler;
  /** The JSON body parser and validator for the speech body, then the synthesis limits. */
  readonly speechBody: readonly RequestHandler[];
}

/**
 * OpenAI's speech API under /v1, on the same accounts and keys: an OpenAI SDK works by changing
 * its base URL. Every error here, an unknown /v1 path included, is in OpenAI's shape.
 */
export function createOpenAiRouter(options: OpenAiRouterOptions): express.Router {
  const { dependencies, logger, apiKey } = options;
  const router = express.Router();
  const models = createModelRoutes(dependencies);
  router.post('/audio/speech', apiKey, ...options.speechBody, createSpeechRoute({ accounts: dependencies.accounts, stream: dependencies.stream, logger }));
  router.get('/models', apiKey, models.listModels);
  router.get('/models/:id', apiKey, models.getModel);
  router.get('/audio/voices', apiKey, models.listVoices);
  router.use(notFound());
  router.use(errorHandler(logger, renderOpenAiError));
  return router;
}
