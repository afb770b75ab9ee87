import { describeProviderConformance } from '../../../core/testing';
import google from '../../../plugins/google';
import { standInFetch, standInOptions } from './stand-in';

describeProviderConformance({ plugin: google, options: standInOptions, fetch: standInFetch() });
