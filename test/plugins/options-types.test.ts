import { expect } from 'chai';
import type { OptionsFromSchema, OptionsSchema, TtsPlugin } from '../../core';
import azurePlugin from '../../plugins/azure';
import { azureOptionsSchema } from '../../plugins/azure/options-schema';
import cartesiaPlugin from '../../plugins/cartesia';
import { cartesiaOptionsSchema } from '../../plugins/cartesia/options-schema';
import deepgramPlugin from '../../plugins/deepgram';
import { deepgramOptionsSchema } from '../../plugins/deepgram/options-schema';
import edgePlugin from '../../plugins/edge';
import { edgeOptionsSchema } from '../../plugins/edge/options-schema';
import elevenLabsPlugin from '../../plugins/elevenlabs';
import { elevenLabsOptionsSchema } from '../../plugins/elevenlabs/options-schema';
import espeakPlugin from '../../plugins/espeak';
import { espeakOptionsSchema } from '../../plugins/espeak/options-schema';
import googlePlugin from '../../plugins/google';
import { googleOptionsSchema } from '../../plugins/google/options-schema';
import miniMaxPlugin from '../../plugins/minimax';
import { miniMaxOptionsSchema } from '../../plugins/minimax/options-schema';
import openAiPlugin from '../../plugins/openai';
import { openAiOptionsSchema } from '../../plugins/openai/options-schema';
import openAiCompatiblePlugin from '../../plugins/openai-compatible';
import { openAiCompatibleOptionsSchema } from '../../plugins/openai-compatible/options-schema';
import pollyPlugin from '../../plugins/polly';
import { pollyOptionsSchema } from '../../plugins/polly/options-schema';

/** True only when A and B are the same type (not merely assignable one way). */
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;

/** The options a plugin's create() takes. */
type CreateOptions<Plugin> = Plugin extends TtsPlugin<infer Options> ? Options : never;

/** True only when the plugin's create() takes exactly `Options`. */
type Takes<Plugin, Options> = Equal<CreateOptions<Plugin>, Options>;

describe('plugins: every options type is read off its options-schema', () => {
  it("types each plugin's create() with its schema, at compile time", () => {
    // Each assignment is a compile error unless create() takes exactly the schema's type.
    const checks: true[] = [
      true satisfies Takes<typeof azurePlugin, OptionsFromSchema<typeof azureOptionsSchema>>,
      true satisfies Takes<typeof cartesiaPlugin, OptionsFromSchema<typeof cartesiaOptionsSchema>>,
      true satisfies Takes<typeof deepgramPlugin, OptionsFromSchema<typeof deepgramOptionsSchema>>,
      true satisfies Takes<typeof edgePlugin, OptionsFromSchema<typeof edgeOptionsSchema>>,
      true satisfies Takes<typeof elevenLabsPlugin, OptionsFromSchema<typeof elevenLabsOptionsSchema>>,
      true satisfies Takes<typeof espeakPlugin, OptionsFromSchema<typeof espeakOptionsSchema>>,
      true satisfies Takes<typeof googlePlugin, OptionsFromSchema<typeof googleOptionsSchema>>,
      true satisfies Takes<typeof miniMaxPlugin, OptionsFromSchema<typeof miniMaxOptionsSchema>>,
      true satisfies Takes<typeof openAiPlugin, OptionsFromSchema<typeof openAiOptionsSchema>>,
      true satisfies Takes<typeof openAiCompatiblePlugin, OptionsFromSchema<typeof openAiCompatibleOptionsSchema>>,
      true satisfies Takes<typeof pollyPlugin, OptionsFromSchema<typeof pollyOptionsSchema>>,
    ];
    // A hand-written options type that differs from the schema's is refused:
    // @ts-expect-error: Google's schema has `baseUrl` and `timeoutMs` (with defaults) as well
    const handWritten = true satisfies Equal<{ apiKey: string }, OptionsFromSchema<typeof googleOptionsSchema>>;
    expect([...checks, handWritten]).to.have.length(12);
  });

  it('validates with the very schema the type was read from', () => {
    const pairs: [TtsPlugin<never>, OptionsSchema][] = [
      [azurePlugin, azureOptionsSchema],
      [cartesiaPlugin, cartesiaOptionsSchema],
      [deepgramPlugin, deepgramOptionsSchema],
      [edgePlugin, edgeOptionsSchema],
      [elevenLabsPlugin, elevenLabsOptionsSchema],
      [espeakPlugin, espeakOptionsSchema],
      [googlePlugin, googleOptionsSchema],
      [miniMaxPlugin, miniMaxOptionsSchema],
      [openAiPlugin, openAiOptionsSchema],
      [openAiCompatiblePlugin, openAiCompatibleOptionsSchema],
      [pollyPlugin, pollyOptionsSchema],
    ];
    for (const [plugin, schema] of pairs) expect(plugin.optionsSchema, plugin.id).to.equal(schema);
  });
});
