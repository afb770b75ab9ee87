import { describeProviderConformance } from '../../../core/testing';
import openAiPlugin from '../../../plugins/openai';
import { standInFetch, standInOptions } from './stand-in';

describeProviderConformance({ plugin: openAiPlugin, options: standInOptions, fetch: standInFetch() });
