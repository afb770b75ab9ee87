/**
 * The built-in espeak plugin: eSpeak NG compiled to WebAssembly, so the gateway speaks with
 * zero configuration, no key and no network.
 */
import { availableParallelism } from 'node:os';
import { definePlugin } from '../../core';
import { EspeakSynthesisClient } from './client';
import { espeakOptionsSchema, type EspeakOptions } from './options-schema';
import { EspeakProvider } from './provider';

export { ESPEAK_MODEL_NAME } from './models';
export type { EspeakOptions } from './options-schema';

export default definePlugin<EspeakOptions>({
  id: 'espeak',
  optionsSchema: espeakOptionsSchema,
  create(options, context) {
    const client = new EspeakSynthesisClient(options.workers ?? availableParallelism(), undefined, { maxQueuedTasksPerWorker: options.maxQueuedTasks });
    context.logger.info('espeak worker pool created', { instanceId: context.instanceId, maxWorkers: client.workers });
    return new EspeakProvider(client, options.defaultVoice);
  },
});
