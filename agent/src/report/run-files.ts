import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { EpisodeRecord } from './episode-record.js';
import { runMetrics, type RunMetrics } from './metrics.js';

/**
 * A run's output folder: episodes.jsonl grows by one line per finished episode and metrics.json
 * is rewritten after each, so an interrupted run keeps everything it played.
 */
export class RunFiles {
  readonly records: EpisodeRecord[] = [];

  constructor(
    readonly dir: string,
    private readonly run: Record<string, unknown>,
  ) {
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'episodes.jsonl'), '');
  }

  add(record: EpisodeRecord): RunMetrics {
    this.records.push(record);
    appendFileSync(join(this.dir, 'episodes.jsonl'), `${JSON.stringify(record)}\n`);
    return this.writeMetrics();
  }

  writeMetrics(extra: Record<string, unknown> = {}): RunMetrics {
    const metrics = runMetrics(this.records, { ...this.run, ...extra });
    writeFileSync(join(this.dir, 'metrics.json'), `${JSON.stringify(metrics, null, 2)}\n`);
    return metrics;
  }
}
