import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { Trajectory } from '@gauntlet/proto/rollout';
import { runMetrics, type RunMetrics } from '../collect/gauntlet/metrics.js';
import { progress, runGauntletOracleEpisode } from '../collect/gauntlet/rollout.js';
import { onPorts, openInProcessEnvs } from './in-process-envs.js';
import { GAUNTLET_STEPS } from '../tasks/gauntlet/plan.js';
import { parseSeeds, UsageError } from '@gauntlet/proto/cli';
import { COMMON_FLAGS_HELP, asUsage, parseTasks, positiveInt } from './gauntlet-args.js';
import { Progress } from './progress.js';

export const SOLVE_HELP = `gauntlet-env solve — play Gauntlet tasks with the built-in oracle and report success

Usage: gauntlet-env solve [flags]

Flags:
${COMMON_FLAGS_HELP}
  --out <dir>           also write <dir>/metrics.json (per step and per type: success, actions, time)
  --json                print the metrics JSON on stdout instead of the summary table

Progress goes to stderr, one line per episode. Examples:
  npx gauntlet-env solve --task gauntlet --seeds 0-99 --concurrency 4
  npx gauntlet-env solve --task 'gauntlet:*' --seeds 0-49 --out runs/types
`;

const FLAGS = {
  task: { type: 'string' },
  seeds: { type: 'string' },
  concurrency: { type: 'string' },
  'start-step': { type: 'string' },
  'chromium-path': { type: 'string' },
  out: { type: 'string' },
  json: { type: 'boolean' },
} as const;

export interface SweepSettings {
  tasks: string[];
  seeds: number[];
  concurrency: number;
  options: Record<string, unknown>;
  chromiumPath: string | undefined;
}

export function sweepSettings(values: {
  task?: string;
  seeds?: string;
  concurrency?: string;
  'start-step'?: string;
  'chromium-path'?: string;
}): SweepSettings {
  const startStep = values['start-step'];
  const start = startStep === undefined ? undefined : positiveInt(startStep, 'start-step', 1);
  if (start !== undefined && start > GAUNTLET_STEPS)
    throw new UsageError(`--start-step must be between 1 and ${GAUNTLET_STEPS} (got ${start})`);
  return {
    tasks: parseTasks(values.task ?? 'gauntlet'),
    seeds: parseSeeds(values.seeds ?? '0-9'),
    concurrency: positiveInt(values.concurrency, 'concurrency', 2),
    options: start === undefined ? {} : { start_step: start },
    chromiumPath: values['chromium-path'],
  };
}

export async function solveCommand(args: string[]): Promise<number> {
  const { values } = asUsage(() => parseArgs({ args, options: FLAGS, strict: true, allowPositionals: false }));
  const settings = sweepSettings(values);
  const jobs = settings.tasks.flatMap((task) => settings.seeds.map((seed) => ({ task, seed })));
  const tally = new Progress('solve', jobs.length);
  const episodes: Trajectory[] = [];
  const pool = await openInProcessEnvs(settings.concurrency, settings.chromiumPath);
  try {
    await onPorts(pool.ports, jobs, async (port, { task, seed }) => {
      const episode = await runGauntletOracleEpisode(port, task, seed, task === 'gauntlet' ? settings.options : {});
      episodes.push(episode);
      tally.episode(episode.outcome === 'success', describe(episode));
    });
  } finally {
    await pool.close();
  }
  const metrics = runMetrics(episodes);
  if (values.out) {
    await mkdir(values.out, { recursive: true });
    await writeFile(join(values.out, 'metrics.json'), JSON.stringify({ settings, ...metrics }, null, 2) + '\n');
    tally.note(`metrics written to ${join(values.out, 'metrics.json')}`);
  }
  process.stdout.write(values.json ? JSON.stringify(metrics, null, 2) + '\n' : summary(metrics));
  return 0;
}

export function describe(episode: Trajectory): string {
  const why =
    episode.outcome === 'success' ? '' : ` [${episode.outcome}${episode.error ? `: ${episode.error.message}` : ''}]`;
  const { solved, total } = progress(episode);
  return `${episode.task} seed ${episode.seed}: ${solved}/${total} steps, ${episode.turns.length} actions, ${(episode.wall_ms / 1000).toFixed(1)} s${why}`;
}

/** The human summary: overall success, then one row per challenge type. */
export function summary(metrics: RunMetrics): string {
  const rows = Object.entries(metrics.per_type).map(
    ([type, s]) =>
      `  ${type.padEnd(18)} ${`${s.solved}/${s.attempts}`.padStart(9)} ${(s.success_rate * 100).toFixed(1).padStart(6)} % ${s.actions_mean.toFixed(1).padStart(7)} ${Math.round(s.wall_ms_mean).toString().padStart(8)} ${Math.round(s.env_ms_mean).toString().padStart(7)}`,
  );
  return [
    `episodes: ${metrics.episodes}, all steps solved: ${(metrics.success_rate * 100).toFixed(1)} %, mean steps solved: ${metrics.steps_solved_mean.toFixed(2)}`,
    `  ${'type'.padEnd(18)} ${'solved'.padStart(9)} ${'rate'.padStart(8)} ${'actions'.padStart(7)} ${'wall ms'.padStart(8)} ${'env ms'.padStart(7)}`,
    ...rows,
    ...metrics.failures.map(
      (f) =>
        `  failed: ${f.task} seed ${f.seed} at ${f.solved}/${f.total} (${f.outcome}${f.error ? `: ${f.error}` : ''})`,
    ),
    '',
  ].join('\n');
}
