import { UsageError } from './usage-error.js';

/** `0-99`, `7`, `1,5,10-12` → the seeds, in order, without repeats; `flag` names the flag in errors. */
export function parseSeeds(spec: string | readonly string[], flag = 'seeds'): number[] {
  const seeds = new Set<number>();
  const parts = (typeof spec === 'string' ? spec.split(',') : spec.flatMap((s) => s.split(',')))
    .map((p) => p.trim())
    .filter(Boolean);
  for (const part of parts) {
    const match = /^(\d+)(?:-(\d+))?$/.exec(part);
    if (!match) throw new UsageError(`--${flag}: "${part}" is not a seed or a range like 0-99`, flag);
    const [from, to] = [Number(match[1]), Number(match[2] ?? match[1])];
    if (to < from) throw new UsageError(`--${flag}: range ${part} runs backwards`, flag);
    if (to - from > 1_000_000) throw new UsageError(`--${flag}: range ${part} is too large`, flag);
    for (let s = from; s <= to; s++) seeds.add(s);
  }
  if (seeds.size === 0) throw new UsageError(`--${flag}: no seeds given`, flag);
  return [...seeds];
}
