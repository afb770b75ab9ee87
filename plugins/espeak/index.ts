/**
 * The built-in espeak plugin: eSpeak NG compiled to WebAssembly, so the gateway speaks with
 * zero configuration, no key and no network.
 */
import { availableParallelism } from 'node:os';
import { definePlugin } from '../../core';
import { espeakOptionsSchema, type EspeakOptions } from './espeak-options';
import { EspeakProvider } from './espeak-provider';
import { EspeakSynthesisClient } from './synthesis-client';

export { ESPEAK_MODEL_NAME } from './espeak-model';
export type { EspeakOptions } from './espeak-options';

export default definePlugin<EspeakOptions>({
  id: 'espeak',
  optionsSchema: espeakOptionsSchema,
  create(options, context) {
    const client = new EspeakSynthesisClient(options.workers ?? availableParallelism());
    context.logger.info('espeak worker pool created', { instanceId: context.instanceId, workers: client.workers });
    return new EspeakProvider(client, options.defaultVoice);
  },
});
