import { describeProviderConformance } from '../../../core/testing';
import elevenLabsPlugin from '../../../plugins/elevenlabs';
import { baseOptions } from './elevenlabs-harness';
import { fixtureFetch } from './fixture-fetch';

describeProviderConformance({
  plugin: elevenLabsPlugin,
  options: { ...baseOptions, voicePageSize: 2 },
  fetch: fixtureFetch('elevenlabs', ['models', 'voices-paged', 'speech-mp3', 'speech-pcm-speed']),
});
