import { describeProviderConformance } from '../../../core/testing';
import espeakPlugin from '../../../plugins/espeak';

describeProviderConformance({ plugin: espeakPlugin, options: { workers: 2 }, voiceFor: () => 'en-us' });
