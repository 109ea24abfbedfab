import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { main } from '../../src/cli/main.js';
import type { EpisodeRecord } from '../../src/report/episode-record.js';
import type { RunMetrics } from '../../src/report/metrics.js';

/** Runs `gauntlet-agent` in-process; returns its exit code and what it printed. */
export async function agent(args: string[], env: NodeJS.ProcessEnv = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(args, {
    io: { out: (line) => out.push(line), err: (line) => err.push(line) },
    env,
    signal: new AbortController().signal,
  });
  return { code, out, err, errors: err.filter((line) => !line.startsWith('[')) };
}

export function readRun(dir: string): { metrics: RunMetrics; episodes: EpisodeRecord[] } {
  const metrics = JSON.parse(readFileSync(join(dir, 'metrics.json'), 'utf8')) as RunMetrics;
  const episodes = readFileSync(join(dir, 'episodes.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as EpisodeRecord);
  return { metrics, episodes };
}
