import { definePlugin } from '../../core';
import { AzureClient } from './client';
import { AzureProvider } from './provider';
import { azureOptionsSchema, type AzureOptions } from './options-schema';

/** Azure AI Speech text to speech (neural voices, SSML over REST). */
export default definePlugin<AzureOptions>({
  id: 'azure',
  optionsSchema: azureOptionsSchema,
  create: (options, context) => new AzureProvider(new AzureClient(options, context.fetch)),
});

export { AZURE_MODEL, AZURE_MODEL_NAME, AZURE_MAX_INPUT_CHARS } from './models';
export type { AzureOptions } from './options-schema';
