import type { VoiceInfo } from '../plugin/contract';
import type { ModelRoutes, RouteTarget } from '../synthesis/ports';

/** One model a virtual model can be served by, with that model's names for the route's voices. */
export interface RouteTargetConfig {
  readonly model: string;
  /** The route's voice names -> this target's voice ids; a voice not listed passes unchanged. */
  readonly voices: Readonly<Record<string, string>>;
  /** Share of first picks under `loadbalance`. */
  readonly weight?: number;
}

/**
 * A virtual model served beside the real ones: `fallback` tries the targets in order,
 * `loadbalance` picks the first by weight and falls back to the others. An alias is a route
 * with one target.
 */
export interface ModelRoute {
  readonly name: string;
  readonly strategy: 'fallback' | 'loadbalance';
  readonly targets: readonly RouteTargetConfig[];
}

/**
 * The routes in force: a route named like a real model is ignored (the real model wins), and
 * targets that are not served are left out (a route with none left is ignored). Decided at each
 * call, so that a provider that lists its models late (re-listing) joins its routes then.
 */
export class ModelRouter implements ModelRoutes {
  private readonly byName = new Map<string, ModelRoute>();

  constructor(
    routes: readonly ModelRoute[],
    private readonly isServedModel: (model: string) => boolean,
    private readonly random: () => number = Math.random,
  ) {
    for (const route of routes) if (!this.byName.has(route.name)) this.byName.set(route.name, route);
  }

  /** Route names in force, alphabetically. */
  names(): string[] {
    return [...this.byName.keys()].filter((name) => this.find(name) !== undefined).sort();
  }

  find(name: string): ModelRoute | undefined {
    const route = this.byName.get(name);
    if (!route || this.isServedModel(name)) return undefined;
    const targets = route.targets.filter((target) => this.isServedModel(target.model));
    return targets.length > 0 ? { ...route, targets } : undefined;
  }

  /** The models (and their voices) to try, in order; a real model is its own only target. */
  targets(model: string, voice: string): RouteTarget[] {
    const route = this.find(model);
    if (!route) return [{ model, voice }];
    const ordered = route.strategy === 'loadbalance' ? this.weightedOrder(route.targets) : route.targets;
    return ordered.map((target) => this.targetFor(target, voice));
  }

  /** A target with its own name for the route's voice. */
  private targetFor(target: RouteTargetConfig, voice: string): RouteTarget {
    return { model: target.model, voice: Object.hasOwn(target.voices, voice) ? target.voices[voice] : voice };
  }

  /**
   * The target a `fallback` route prefers (its first one served), whose answer the route gives
   * while that target works; undefined for a load-balanced route (any target's answer is its
   * own), an alias (one target) and a real model.
   */
  preferredTarget(model: string, voice: string): RouteTarget | undefined {
    const route = this.find(model);
    if (!route || route.strategy !== 'fallback' || route.targets.length < 2) return undefined;
    return this.targetFor(route.targets[0], voice);
  }

  /** Draws targets one by one, each with a chance proportional to its weight (default 1). */
  private weightedOrder(targets: readonly RouteTargetConfig[]): RouteTargetConfig[] {
    const left = [...targets];
    const order: RouteTargetConfig[] = [];
    while (left.length > 0) {
      const total = left.reduce((sum, target) => sum + (target.weight ?? 1), 0);
      let draw = this.random() * total;
      const index = Math.max(0, left.findIndex((target) => (draw -= target.weight ?? 1) < 0));
      order.push(...left.splice(index, 1));
    }
    return order;
  }
}

/**
 * A route's voices: each voice name of its targets' maps (first target that names it wins),
 * described by the voice it maps to; a name whose target voice does not exist is left out.
 */
export async function routeVoices(route: ModelRoute, voicesOf: (model: string) => Promise<readonly VoiceInfo[]>): Promise<VoiceInfo[]> {
  const listed = new Map<string, VoiceInfo>();
  for (const target of route.targets) {
    const byId = new Map((await voicesOf(target.model)).map((voice) => [voice.voiceId, voice]));
    for (const [name, targetId] of Object.entries(target.voices)) {
      const voice = byId.get(targetId);
      if (voice && !listed.has(name)) listed.set(name, { ...voice, voiceId: name, voiceName: name, description: `${voice.voiceName} (${target.model} voice ${targetId})` });
    }
  }
  return [...listed.values()];
}
