import { existsSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { PluginLoadError } from './plugin-load-error';

/** Where a provider entry's `plugin` name points, and how it was found. */
export interface ResolvedPluginModule {
  readonly kind: 'built-in' | 'path' | 'package';
  /** Absolute path of the module file to require. */
  readonly modulePath: string;
}

export interface ResolvePluginOptions {
  readonly builtInDirectory: string;
  /** Paths are relative to the config file's folder; packages are looked up from it first. */
  readonly configDirectory: string;
  /** Further folders to look up packages from (the gateway's own installation). */
  readonly requireFrom: readonly string[];
  /** For messages: `providers[2]`. */
  readonly configPath: string;
}

const BUILT_IN_NAME = /^[a-z0-9][a-z0-9-]*$/;
/** Conventional package name of a short plugin name, as verdaccio does for its plugins. */
export const PACKAGE_PREFIX = 'tts-gateway-plugin-';

function isPath(name: string): boolean {
  return name.startsWith('.') || isAbsolute(name);
}

function tryResolve(request: string, paths: readonly string[], configPath: string): string | undefined {
  try {
    return require.resolve(request, { paths: [...paths] });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'MODULE_NOT_FOUND') return undefined;
    // For example ERR_PACKAGE_PATH_NOT_EXPORTED: a package with no CommonJS entry point.
    throw new PluginLoadError('TTS_PLUGIN_LOAD_FAILED', { plugin: `"${request}"`, configPath, reason: code ?? (error as Error).message }, {
      configPath,
      cause: error,
    });
  }
}

/**
 * Built-in folder first (`<builtInDirectory>/<name>/index.js`), then a path relative to the
 * config file, then an npm package (`name`, or `tts-gateway-plugin-<name>` for a short name)
 * resolved from the config folder and then from the gateway's own folder.
 */
export function resolvePluginModule(name: string, options: ResolvePluginOptions): ResolvedPluginModule {
  if (BUILT_IN_NAME.test(name)) {
    // Absolute, so require() does not read a relative folder as a package name.
    const builtIn = join(resolve(options.builtInDirectory), name, 'index.js');
    if (existsSync(builtIn)) return { kind: 'built-in', modulePath: builtIn };
  }

  if (isPath(name)) {
    const target = resolve(options.configDirectory, name); // also absolute when configDirectory is relative
    const modulePath = tryResolve(target, [options.configDirectory], options.configPath);
    if (!modulePath) {
      throw new PluginLoadError('TTS_PLUGIN_NOT_INSTALLED', { plugin: name, configPath: options.configPath, hint: `no module at ${target}` }, {
        configPath: options.configPath,
      });
    }
    return { kind: 'path', modulePath };
  }

  const searchFrom = [options.configDirectory, ...options.requireFrom];
  const candidates = BUILT_IN_NAME.test(name) && !name.startsWith(PACKAGE_PREFIX) ? [name, `${PACKAGE_PREFIX}${name}`] : [name];
  for (const candidate of candidates) {
    const modulePath = tryResolve(candidate, searchFrom, options.configPath);
    if (modulePath) return { kind: 'package', modulePath };
  }
  const alternative = candidates.length > 1 ? ` (or npm install ${candidates[1]})` : '';
  throw new PluginLoadError(
    'TTS_PLUGIN_NOT_INSTALLED',
    { plugin: `"${name}"`, configPath: options.configPath, hint: `it is no built-in plugin and no installed package: run \`npm install ${name}\`${alternative} in ${options.configDirectory}` },
    { configPath: options.configPath },
  );
}
