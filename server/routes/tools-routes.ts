import type { Request, Response } from 'express';
import { sendSuccess } from '../envelope';
import type { ListModelsFunction, ListVoicesFunction } from '../app-dependencies';
import { abortOnDisconnect } from '../abort-on-disconnect';

/** Handlers of /api/v1/tools: the model list and one model's voices. */
export function createToolsRoutes(listModels: ListModelsFunction, listVoices: ListVoicesFunction) {
  return {
    /** The list is in memory: no provider is asked, so there is no work to stop if the client leaves. */
    async models(request: Request, response: Response): Promise<void> {
      sendSuccess(response, 'Models listed', await listModels());
    },

    async voices(request: Request<{ model: string }>, response: Response): Promise<void> {
      const disconnect = abortOnDisconnect(response);
      try {
        sendSuccess(response, 'Voices listed', await listVoices(request.params.model, disconnect.signal));
      } finally {
        disconnect.dispose();
      }
    },
  };
}
