import { describeProviderConformance } from '../../../core/testing';
import plugin from '../../../plugins/deepgram';
import { standInFetch, standInOptions } from './stand-in';

describeProviderConformance({ plugin, options: standInOptions, fetch: standInFetch() });
