/** The values a message template is filled with. */
export type ErrorParams = Readonly<Record<string, string | number | undefined>>;

const PLACEHOLDER = /\{([A-Za-z]+)\}/g;
const OPTIONAL_PART = /\[([^[\]]*)\]/g;

const given = (params: ErrorParams, name: string): boolean => params[name] !== undefined && params[name] !== '';

/**
 * Fills a catalogue template: `{name}` takes `params.name`; an `[optional part]` is written only
 * when every parameter in it is given. A required parameter that is missing is written as its
 * own name in angle brackets, so a forgotten value shows in the message instead of vanishing.
 */
export function formatErrorMessage(template: string, params: ErrorParams): string {
  const withOptionalParts = template.replace(OPTIONAL_PART, (_part, inner: string) => {
    const names = [...inner.matchAll(PLACEHOLDER)].map((match) => match[1]);
    return names.every((name) => given(params, name)) ? inner : '';
  });
  return withOptionalParts.replace(PLACEHOLDER, (_placeholder, name: string) => (given(params, name) ? String(params[name]) : `<${name}>`));
}

/** The parameter names a template uses (required and optional). */
export function templateParameters(template: string): string[] {
  return [...new Set([...template.matchAll(PLACEHOLDER)].map((match) => match[1]))];
}
