/** A time limit for people, as the error messages give it: `300 ms`, `5 s`. */
export function durationText(milliseconds: number): string {
  return milliseconds < 1000 || milliseconds % 1000 !== 0 ? `${milliseconds} ms` : `${milliseconds / 1000} s`;
}
