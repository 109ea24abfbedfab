import { appendFile, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { dirname } from 'node:path';
import { Registry } from 'prom-client';
import { liveCurvesPage, type CurvesViewer } from './curves-page.js';
import { GrpoGauges } from './prometheus.js';
import { progressLine } from './progress.js';
import { normaliseUpdate, type RecordedUpdate, type RunUpdate } from './update.js';

export interface RunReportOptions {
  /** Every update is appended here as one JSON line. */
  jsonlPath: string;
  /** Where the gauges live (default: a registry of its own, served by handler()). */
  registry?: Registry;
  /** The terminal progress line and warnings (default: none). */
  log?: (line: string) => void;
  /** Points kept for /curves.json; past it every other old point is dropped (default 5000). */
  maxPoints?: number;
  /** What /curves says about viewing the run's episodes (default: nothing). */
  viewer?: CurvesViewer;
}

/**
 * A run's metrics in three forms: a JSONL file (one line per update), Prometheus gauges
 * (`gauntlet_grpo_*`) and training curves (`/curves`, refreshed from `/curves.json`), plus a
 * progress line per update on the terminal.
 */
export class RunReport {
  readonly registry: Registry;
  private readonly gauges: GrpoGauges;
  private readonly log: (line: string) => void;
  private readonly points: RecordedUpdate[] = [];
  private readonly maxPoints: number;
  private writes: Promise<void> = Promise.resolve();
  private readonly page: string;

  constructor(private readonly options: RunReportOptions) {
    this.registry = options.registry ?? new Registry();
    this.log = options.log ?? (() => {});
    this.maxPoints = options.maxPoints ?? 5000;
    if (!(Number.isInteger(this.maxPoints) && this.maxPoints >= 2))
      throw new RangeError(`run report maxPoints must be an integer ≥ 2, got ${this.maxPoints}`);
    this.gauges = new GrpoGauges(this.registry, this.log);
    this.page = liveCurvesPage(options.viewer ?? null);
  }

  /**
   * Reads the updates an earlier run wrote to jsonlPath (a resumed run's curves continue from
   * them); lines that do not parse are skipped and counted. With `throughVersion` (the version of
   * the checkpoint the run resumes from), later updates are dropped and the file is rewritten
   * without them and without the unreadable lines: the resumed run records those updates again,
   * so each appears once. Returns how many updates were kept.
   */
  async resume(throughVersion?: number): Promise<number> {
    let text: string;
    try {
      text = await readFile(this.options.jsonlPath, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0;
      throw error;
    }
    let bad = 0;
    let dropped = 0;
    const kept: RecordedUpdate[] = [];
    for (const line of text.split('\n').filter((l) => l.trim() !== '')) {
      let update: RecordedUpdate;
      try {
        update = normaliseUpdate(JSON.parse(line) as RunUpdate);
      } catch {
        bad++;
        continue;
      }
      if (throughVersion !== undefined && update.version > throughVersion) dropped++;
      else kept.push(update);
    }
    for (const update of kept) this.keep(update);
    if (bad) this.log(`run report: skipped ${bad} unreadable line(s) of ${this.options.jsonlPath}`);
    if (throughVersion !== undefined && (bad || dropped)) {
      if (dropped)
        this.log(
          `run report: dropped ${dropped} update(s) after version ${throughVersion}; the run records them again`,
        );
      const rewritten = kept.map((update) => `${JSON.stringify(update)}\n`).join('');
      const temporary = `${this.options.jsonlPath}.tmp`;
      await writeFile(temporary, rewritten);
      await rename(temporary, this.options.jsonlPath);
    }
    return kept.length;
  }

  /** Records one update: JSONL line, gauges, curves, progress line. Resolves once the line is written. */
  async record(update: RunUpdate): Promise<RecordedUpdate> {
    const recorded = normaliseUpdate(update);
    const previous = this.points.at(-1);
    this.keep(recorded);
    this.gauges.set(recorded);
    this.log(progressLine(recorded, previous));
    const line = `${JSON.stringify(recorded)}\n`;
    // Chained, so lines land in record order even when callers do not await.
    this.writes = this.writes
      .catch(() => {})
      .then(async () => {
        await mkdir(dirname(this.options.jsonlPath), { recursive: true });
        await appendFile(this.options.jsonlPath, line);
      });
    await this.writes;
    return recorded;
  }

  /** The updates kept for the curves, oldest first. */
  curves(): RecordedUpdate[] {
    return [...this.points];
  }

  /** Serves GET /metrics, /curves and /curves.json; returns false for any other request. */
  handler(req: IncomingMessage, res: ServerResponse): boolean {
    if (req.method !== 'GET' && req.method !== 'HEAD') return false;
    const path = new URL(req.url ?? '/', 'http://local').pathname;
    if (path === '/metrics') {
      this.registry.metrics().then(
        (text) => res.writeHead(200, { 'content-type': this.registry.contentType }).end(text),
        () => res.writeHead(500, { 'content-type': 'text/plain' }).end('metrics unavailable\n'),
      );
      return true;
    }
    if (path === '/curves') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(this.page);
      return true;
    }
    if (path === '/curves.json') {
      res
        .writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' })
        .end(JSON.stringify({ updates: this.points }));
      return true;
    }
    return false;
  }

  private keep(update: RecordedUpdate): void {
    this.points.push(update);
    // Thin the older half: the curve keeps its whole span in bounded memory.
    if (this.points.length > this.maxPoints) {
      const half = Math.floor(this.points.length / 2);
      const thinned = this.points.slice(0, half).filter((_, i) => i % 2 === 0);
      this.points.splice(0, half, ...thinned);
    }
  }
}
