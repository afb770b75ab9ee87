export { ModelAliases, aliasVoices, type ModelAlias } from './model-aliases';
