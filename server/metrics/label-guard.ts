/** Shown instead of a value that looks unsafe or would grow the series without bound. */
export const OTHER_LABEL = '(other)';

/** Names the catalog and config allow (model names, instance ids, codes, outcome words, route patterns): no spaces, no `@`. */
const SAFE_VALUE = /^[A-Za-z0-9()/][A-Za-z0-9._:~()/-]{0,159}$/;
/** An API key never becomes a label, even if a caller passed one by mistake. */
const KEY_LIKE = /ttsg_/i;

/**
 * Keeps label values bounded: a value of an unexpected shape (an email, a key, free text) and
 * every new value past `maxValues` per label are counted as OTHER_LABEL.
 */
export class LabelGuard {
  private readonly seen = new Map<string, Set<string>>();

  constructor(private readonly maxValues = 500) {}

  value(label: string, value: string): string {
    let values = this.seen.get(label);
    // A value let in before passed the checks then: the common case, once per label a request, tests no pattern.
    if (values?.has(value)) return value;
    if (!SAFE_VALUE.test(value) || KEY_LIKE.test(value)) return OTHER_LABEL;
    if (!values) {
      values = new Set();
      this.seen.set(label, values);
    }
    if (values.size >= this.maxValues) return OTHER_LABEL;
    values.add(value);
    return value;
  }
}
