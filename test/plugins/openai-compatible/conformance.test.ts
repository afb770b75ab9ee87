import { describeProviderConformance } from '../../../core/testing';
import compatiblePlugin from '../../../plugins/openai-compatible';
import { standInFetch, standInOptions } from './stand-in';

describeProviderConformance({ plugin: compatiblePlugin, options: standInOptions, fetch: standInFetch() });
