/** The middle value (the upper of the two middle ones for an even count): what every bench reports as typical. */
export function median(values: readonly number[]): number {
  return [...values].sort((left, right) => left - right)[Math.floor(values.length / 2)];
}
