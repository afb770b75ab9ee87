import { definePlugin } from '../../core';
import { EdgeClient } from './client';
import { EdgeProvider } from './provider';
import { edgeOptionsSchema, type EdgeOptions } from './options-schema';

/** Microsoft Edge read-aloud voices over its WebSocket, with no key. */
export default definePlugin<EdgeOptions>({
  id: 'edge',
  optionsSchema: edgeOptionsSchema,
  create: (options, context) => new EdgeProvider(new EdgeClient(options, context.fetch)),
});

export { EDGE_MODEL, EDGE_MODEL_NAME, EDGE_OUTPUT_FORMAT } from './models';
export { secMsGec } from './client-token';
export type { EdgeOptions } from './options-schema';
