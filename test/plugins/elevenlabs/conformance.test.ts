import { describeProviderConformance } from '../../../core/testing';
import elevenLabsPlugin from '../../../plugins/elevenlabs';
import { standInFetch, standInOptions } from './stand-in';

describeProviderConformance({ plugin: elevenLabsPlugin, options: standInOptions, fetch: standInFetch() });
