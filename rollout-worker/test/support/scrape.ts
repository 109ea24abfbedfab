/**
 * The sum of a Prometheus figure's samples at `url` whose labels include `labels` (0 when none):
 * what a dashboard reads, taken from a real process's /metrics.
 */
export async function scrape(url: string, name: string, labels: Record<string, string> = {}): Promise<number> {
  const text = await (await fetch(url)).text();
  const wanted = Object.entries(labels).map(([key, value]) => `${key}="${value}"`);
  let sum = 0;
  for (const line of text.split('\n')) {
    const match = line.match(/^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/);
    if (!match || match[1] !== name) continue;
    const have = (match[2] ?? '').split(',');
    if (wanted.every((pair) => have.includes(pair))) sum += Number(match[3]);
  }
  return sum;
}
