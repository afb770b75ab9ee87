import { MODEL_NAME_PATTERN } from './contract';
import type { ModelInfo, Logger } from './contract';

/** Catalog names appear in URL paths (`/tools/voices/{model}`). */
const SAFE_MODEL_NAME = new RegExp(MODEL_NAME_PATTERN);

export interface ModelSelection {
  /** Models as the catalog shows them (renamed). */
  readonly models: readonly ModelInfo[];
  /** Catalog name -> the provider's own model name. */
  readonly modelMap: ReadonlyMap<string, string>;
}

export interface ModelSelectionRules {
  /** Keep only these provider model names. */
  readonly models?: readonly string[];
  /** Provider model name -> catalog name. */
  readonly rename?: Readonly<Record<string, string>>;
}

/**
 * Applies an entry's `models:` filter, then `rename:`. A name the filter or rename gives that
 * the provider does not offer is logged, not fatal: dynamic model lists change over time.
 */
export function selectModels(offered: readonly ModelInfo[], rules: ModelSelectionRules, logger: Logger, where: string): ModelSelection {
  const offeredNames = new Set(offered.map((model) => model.name));
  for (const name of [...(rules.models ?? []), ...Object.keys(rules.rename ?? {})]) {
    if (!offeredNames.has(name)) logger.warn(`${where} names model "${name}", which the provider does not offer`, { offered: [...offeredNames] });
  }

  const keep = rules.models ? new Set(rules.models) : undefined;
  const models: ModelInfo[] = [];
  const modelMap = new Map<string, string>();
  for (const model of offered) {
    if (keep && !keep.has(model.name)) continue;
    const catalogName = rules.rename?.[model.name] ?? model.name;
    if (!SAFE_MODEL_NAME.test(catalogName)) {
      logger.warn(`${where}: model "${catalogName}" is left out: its name is not URL-path safe (give it one with rename:)`);
      continue;
    }
    if (modelMap.has(catalogName)) {
      logger.warn(`${where}: model "${catalogName}" is listed twice by the provider; the first one is kept`);
      continue;
    }
    modelMap.set(catalogName, model.name);
    models.push({ ...model, name: catalogName });
  }
  return { models, modelMap };
}
