import { describeProviderConformance } from '../../../core/testing';
import azurePlugin from '../../../plugins/azure';
import { standInFetch, standInOptions } from './stand-in';

describeProviderConformance({ plugin: azurePlugin, options: standInOptions, fetch: standInFetch() });
