import type { SchemaObject } from 'ajv';

/** JSON Schemas of the /v1 answers, in OpenAI's shapes (checked against real answers by a test). */

const MODEL_OBJECT: SchemaObject = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'object', 'created', 'owned_by'],
  properties: {
    id: { type: 'string', description: 'A model name or alias, as the `model` of a speech request' },
    object: { const: 'model' },
    created: { type: 'integer', description: 'Unix seconds: when this gateway started serving it' },
    owned_by: { type: 'string', description: 'The provider instance, or `tts-gateway` for an alias' },
  },
};

export const OPENAI_MODEL_SCHEMA: SchemaObject = MODEL_OBJECT;

export const OPENAI_MODEL_LIST_SCHEMA: SchemaObject = {
  type: 'object',
  additionalProperties: false,
  required: ['object', 'data'],
  properties: { object: { const: 'list' }, data: { type: 'array', items: MODEL_OBJECT } },
};

export const OPENAI_VOICE_LIST_SCHEMA: SchemaObject = {
  type: 'object',
  additionalProperties: false,
  required: ['model', 'voices'],
  properties: {
    model: { type: 'string' },
    voices: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['id', 'name', 'language', 'gender', 'description'],
        properties: {
          id: { type: 'string', description: 'The `voice` of a speech request' },
          name: { type: 'string' },
          language: { type: 'string', description: 'BCP 47 language tag' },
          gender: { enum: ['Male', 'Female', 'Unknown'] },
          description: { type: 'string' },
        },
      },
    },
  },
};

export const SPEECH_EVENTS_SCHEMA: SchemaObject = {
  type: 'string',
  description:
    'Server-sent events: `data: {"type":"speech.audio.delta","audio":"<base64>"}` per piece of audio, then ' +
    '`data: {"type":"speech.audio.done","usage":{"input_tokens","output_tokens","total_tokens"}}`; an `error` event if the synthesis fails after the stream began.',
};
