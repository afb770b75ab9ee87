import express, { type RequestHandler } from 'express';
import type { SchemaObject } from 'ajv';
import type { Logger } from 'winston';
import { OPENAI_ROUTES } from '../api/openai-routes';
import { registerRoutes } from '../api/register-routes';
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
  /** Parses and validates a JSON body against a route's schema. */
  readonly body: (schema: SchemaObject) => readonly RequestHandler[];
  /** The synthesis limits, after the body is validated. */
  readonly speechLimits: RequestHandler;
}

/**
 * OpenAI's speech API under /v1 (the routes of OPENAI_ROUTES), on the same accounts and keys:
 * an OpenAI SDK works by changing its base URL. Every error here, an unknown /v1 path
 * included, is in OpenAI's shape.
 */
export function createOpenAiRouter(options: OpenAiRouterOptions): express.Router {
  const { dependencies, logger, apiKey } = options;
  const router = express.Router();
  const models = createModelRoutes(dependencies);
  registerRoutes(
    router,
    OPENAI_ROUTES,
    {
      handlers: {
        speech: [options.speechLimits, createSpeechRoute({ accounts: dependencies.accounts, stream: dependencies.stream, logger })],
        openAiModels: models.listModels,
        openAiModel: models.getModel,
        openAiVoices: models.listVoices,
      },
      guards: { key: [apiKey], public: [], download: [apiKey] },
      body: options.body,
    },
    '/v1',
  );
  router.use(notFound());
  router.use(errorHandler(logger, renderOpenAiError));
  return router;
}
