import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { RunReport } from '../../rl/report/index.js';

/** Where every training command writes its curves' data (grpo's run folder has the same file). */
export const METRICS_FILE = 'metrics.jsonl';

export type RecordStep = (step: number, metrics: Record<string, number>) => Promise<void>;

/**
 * sft's and dpo's `<out>/metrics.jsonl`: one row per optimizer step in the shape grpo's run report
 * writes (`step`, `version` = step, `time`, `metrics`, `successByTask`), through the same
 * RunReport, so `plot` draws any run's file. The file appears with the first step (a run stopped
 * before it leaves no folder); a fresh run removes an older file (--force), a resumed one keeps the
 * rows through its checkpoint's step and drops later ones, which it records again. An interrupted
 * run keeps the rows of the steps it took.
 */
export async function stepReport(outDir: string, resumedAt?: number): Promise<RecordStep> {
  const report = new RunReport({ jsonlPath: join(outDir, METRICS_FILE) });
  if (resumedAt === undefined) await rm(join(outDir, METRICS_FILE), { force: true });
  else await report.resume(resumedAt);
  return async (step, metrics) => void (await report.record({ step, version: step, metrics, successByTask: {} }));
}
