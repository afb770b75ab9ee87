/** Plain code-point order (not the locale's): the same order on every machine, as lists promise. */
export function compareText(left: string, right: string): number {
  return left < right ? -1 : left > right ? 1 : 0;
}
