import type { Request, Response } from 'express';
import { GatewayError, gatewayError } from '../../core';
import { abortOnDisconnect } from '../abort-on-disconnect';
import type { ListVoicesFunction, ModelEntry } from '../app-dependencies';

/** The model `/v1/audio/voices` lists when the request names none: OpenAI's own default. */
const DEFAULT_VOICE_MODEL = 'tts-1';

export interface ModelRoutesOptions {
  readonly listModelEntries: () => Promise<readonly ModelEntry[]>;
  readonly listVoices: ListVoicesFunction;
  /** OpenAI's `created`, in Unix seconds: when this gateway started serving the model. */
  readonly startedAt: number;
}

const toModelObject = (entry: ModelEntry, created: number) => ({ id: entry.id, object: 'model', created, owned_by: entry.ownedBy });

/** GET /v1/models, /v1/models/{id} and /v1/audio/voices, in the shapes OpenAI clients read. */
export function createModelRoutes(options: ModelRoutesOptions) {
  return {
    async listModels(_request: Request, response: Response): Promise<void> {
      const entries = await options.listModelEntries();
      response.json({ object: 'list', data: entries.map((entry) => toModelObject(entry, options.startedAt)) });
    },

    async getModel(request: Request<{ id: string[] }>, response: Response): Promise<void> {
      const id = modelIdOf(request.params.id);
      const entry = (await options.listModelEntries()).find((candidate) => candidate.id === id);
      if (!entry) throw modelNotFound(id);
      response.json(toModelObject(entry, options.startedAt));
    },

    /** `{voices: [{id, name, language, gender, description}]}`, as Kokoro-FastAPI-style servers answer. */
    async listVoices(request: Request, response: Response): Promise<void> {
      const model = typeof request.query.model === 'string' && request.query.model.length > 0 ? request.query.model : DEFAULT_VOICE_MODEL;
      const disconnect = abortOnDisconnect(response);
      try {
        const voices = await options.listVoices(model, disconnect.signal);
        response.json({
          model,
          voices: voices.map((voice) => ({ id: voice.voiceId, name: voice.voiceName, language: voice.language, gender: voice.gender, description: voice.description })),
        });
      } finally {
        disconnect.dispose();
      }
    },
  };
}

/**
 * The id from the wildcard's decoded segments: `piper%2Fen_US-amy-low` is one, `piper/en_US-amy-low`
 * two; a trailing slash is dropped (`/v1/models/tts-1/`), as for every other route.
 */
function modelIdOf(segments: readonly string[]): string {
  return (segments.at(-1) === '' ? segments.slice(0, -1) : segments).join('/');
}

function modelNotFound(model: string): GatewayError {
  const shown = model.length > 100 ? `${model.slice(0, 100)}...` : model;
  return gatewayError('TTS_ERR_MODEL_NOT_FOUND', { provider: 'The gateway', model: shown }, { details: [{ field: 'model', reason: 'unknown model' }] });
}
