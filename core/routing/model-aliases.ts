import type { VoiceInfo } from '../plugin/contract';
import type { ModelRoutes } from '../synthesis/ports';

/** A model name served by another model, with voice names of its own. */
export interface ModelAlias {
  readonly model: string;
  /** The catalog model that serves it. */
  readonly target: string;
  /** The alias's voice names -> the target's voice ids. */
  readonly voices: Readonly<Record<string, string>>;
}

/**
 * Aliases in force: those whose name is not a real model (a real model always wins) and whose
 * target is served. Voices not in an alias's map go to the target unchanged.
 */
export class ModelAliases implements ModelRoutes {
  private readonly active = new Map<string, ModelAlias>();

  constructor(aliases: readonly ModelAlias[], isServedModel: (model: string) => boolean) {
    for (const alias of aliases) {
      if (!isServedModel(alias.model) && isServedModel(alias.target) && !this.active.has(alias.model)) this.active.set(alias.model, alias);
    }
  }

  /** Alias names in force, alphabetically. */
  names(): string[] {
    return [...this.active.keys()].sort();
  }

  find(model: string): ModelAlias | undefined {
    return this.active.get(model);
  }

  route(model: string, voice: string): { model: string; voice: string } {
    const alias = this.active.get(model);
    if (!alias) return { model, voice };
    return { model: alias.target, voice: Object.hasOwn(alias.voices, voice) ? alias.voices[voice] : voice };
  }
}

/**
 * An alias's voices: each of its voice names, described by the target voice it maps to (a name
 * whose target voice does not exist is left out).
 */
export function aliasVoices(alias: ModelAlias, targetVoices: readonly VoiceInfo[]): VoiceInfo[] {
  const byId = new Map(targetVoices.map((voice) => [voice.voiceId, voice]));
  return Object.entries(alias.voices).flatMap(([name, targetId]) => {
    const target = byId.get(targetId);
    if (!target) return [];
    return [{ ...target, voiceId: name, voiceName: name, description: `${target.voiceName} (${alias.target} voice ${targetId})` }];
  });
}
