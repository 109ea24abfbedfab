import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Trajectory } from '@gauntlet/proto/rollout';
import { runMetrics, type RunMetrics } from '../collect/gauntlet/metrics.js';
import { progress, runGauntletOracleEpisode } from '../collect/gauntlet/rollout.js';
import { onPorts, openInProcessEnvs } from './in-process-envs.js';
import { defineCommand, parseSeeds, type OptionValues } from '@gauntlet/proto/cli';
import { parseTasks, SOLVE_OPTIONS, type SWEEP_OPTIONS } from './gauntlet-args.js';
import { Progress } from './progress.js';

export interface SweepSettings {
  tasks: string[];
  seeds: number[];
  concurrency: number;
  options: Record<string, unknown>;
  chromiumPath: string | undefined;
}

export function sweepSettings(values: OptionValues<typeof SWEEP_OPTIONS>): SweepSettings {
  const start = values['start-step'];
  return {
    tasks: parseTasks(values.task),
    seeds: parseSeeds(values.seeds),
    concurrency: values.concurrency,
    options: start === undefined ? {} : { start_step: start },
    chromiumPath: values['chromium-path'],
  };
}

export const solveCommand = defineCommand({
  name: 'solve',
  summary: 'Play Gauntlet tasks with their oracle and report success',
  description:
    'Plays Gauntlet tasks with the built-in oracle and reports success per challenge type. Progress goes to stderr, one line per episode; the summary (or --json) to stdout.',
  options: SOLVE_OPTIONS,
  examples: [
    'npx gauntlet-env solve --task gauntlet --seeds 0-99 --concurrency 4',
    "npx gauntlet-env solve --task 'gauntlet:*' --seeds 0-49 --out runs/types",
  ],
  async run({ values, io, signal }) {
    const settings = sweepSettings(values);
    const jobs = settings.tasks.flatMap((task) => settings.seeds.map((seed) => ({ task, seed })));
    const tally = new Progress('solve', jobs.length, io.err);
    const episodes: Trajectory[] = [];
    const pool = await openInProcessEnvs(settings.concurrency, settings.chromiumPath);
    try {
      await onPorts(pool.ports, jobs, signal, async (port, { task, seed }) => {
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
    io.out(values.json ? JSON.stringify(metrics, null, 2) : summary(metrics).trimEnd());
  },
});

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
