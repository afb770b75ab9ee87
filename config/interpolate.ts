import { childPath } from './config-path';

/**
 * `${VAR}` and `${VAR:-default}` in any string of the config; `$${` writes a literal `${`.
 * An unset or empty variable counts as missing (Compose passes unset variables as empty
 * strings); `${VAR:-}` opts into an empty value.
 */

export type Environment = Readonly<Record<string, string | undefined>>;

export interface InterpolationProblem {
  /** Where in the file: `providers[1].options.apiKey`. */
  readonly path: string;
  /** The missing variable, or undefined for a malformed reference. */
  readonly variable?: string;
  readonly message: string;
}

const REFERENCE = /\$\$\{|\$\{([^}]*)\}/g;
const EXPRESSION = /^([A-Za-z_][A-Za-z0-9_]*)(?::-([\s\S]*))?$/;

export function isSet(env: Environment, name: string): boolean {
  const value = env[name];
  return value !== undefined && value !== '';
}

function interpolateString(text: string, env: Environment, path: string, problems: InterpolationProblem[]): string {
  return text.replace(REFERENCE, (match, expression: string | undefined) => {
    if (expression === undefined) return '${';
    const parsed = EXPRESSION.exec(expression);
    // A default cannot hold another reference: `${A:-${B}}` would pass `${B}` on as text.
    if (!parsed || parsed[2]?.includes('${')) {
      // Not echoed: what is inside may be a key pasted there by mistake.
      problems.push({ path, message: `${path} has a malformed reference (write \${NAME} or \${NAME:-default}, whose default holds no \${)` });
      return match;
    }
    const [, name, fallback] = parsed;
    if (isSet(env, name)) return env[name] as string;
    if (fallback !== undefined) return fallback;
    problems.push({ path, variable: name, message: `${path} needs environment variable ${name}, which is not set` });
    return match;
  });
}

/**
 * Returns a copy of `value` with every string interpolated. `skip(path)` leaves a subtree as
 * written (providers skipped by `ifEnv` may name variables that are legitimately unset).
 */
export function interpolateTree(
  value: unknown,
  env: Environment,
  problems: InterpolationProblem[],
  skip: (path: string) => boolean = () => false,
  path = '',
): unknown {
  if (path !== '' && skip(path)) return value;
  if (typeof value === 'string') return interpolateString(value, env, path || '(root)', problems);
  if (Array.isArray(value)) return value.map((item, index) => interpolateTree(item, env, problems, skip, childPath(path, index)));
  if (value !== null && typeof value === 'object') {
    const copy: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) copy[key] = interpolateTree(item, env, problems, skip, childPath(path, key));
    return copy;
  }
  return value;
}
