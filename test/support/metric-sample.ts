/** The value of one sample line of a Prometheus exposition with exactly these labels, or undefined. */
export function sample(exposition: string, name: string, labels: Record<string, string>): number | undefined {
  const wanted = Object.entries(labels).map(([key, value]) => `${key}="${value}"`);
  for (const line of exposition.split('\n')) {
    if (!line.startsWith(`${name}{`)) continue;
    const present = line.slice(name.length + 1, line.indexOf('}')).split(',');
    if (wanted.every((pair) => present.includes(pair)) && present.length === wanted.length) return Number(line.slice(line.indexOf('}') + 1));
  }
  return undefined;
}
