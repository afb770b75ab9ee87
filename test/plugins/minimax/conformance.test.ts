import { describeProviderConformance } from '../../../core/testing';
import plugin from '../../../plugins/minimax';
import { STAND_IN_VOICE, standInFetch, standInOptions } from './stand-in';

describeProviderConformance({
  plugin,
  options: standInOptions,
  fetch: standInFetch(),
  synthesisModels: ['speech-2.8-hd'],
  voiceFor: () => STAND_IN_VOICE,
});
