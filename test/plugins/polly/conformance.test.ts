import { describeProviderConformance } from '../../../core/testing';
import polly from '../../../plugins/polly';
import { standInFetch, standInOptions } from './stand-in';

describeProviderConformance({ plugin: polly, options: standInOptions, fetch: standInFetch() });
