import { describeProviderConformance } from '../../../core/testing';
import plugin from '../../../plugins/cartesia';
import { standInFetch, standInOptions } from './stand-in';

describeProviderConformance({ plugin, options: standInOptions, fetch: standInFetch() });
