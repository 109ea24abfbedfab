import { randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ObservationFormat } from '@gauntlet/proto';
import type { EpisodeEnv } from '@gauntlet/proto/agent';
import type { Trajectory } from '@gauntlet/proto/rollout';
import { oracleSftRecords, runMiniwobOracleEpisode } from '../collect/miniwob.js';
import { episodeKey } from '../collect/records.js';
import { miniwobTasks } from '../tasks/miniwob/index.js';
import { onPorts, openInProcessEnvs } from './in-process-envs.js';
import { parseSeeds, UsageError, type CommandIo, type OptionValues } from '@gauntlet/proto/cli';
import type { COLLECT_OPTIONS } from './gauntlet-args.js';
import { appendRecords, readField } from './jsonl-store.js';
import { Progress, rate, seconds } from './progress.js';

/** `miniwob`, `miniwob.*` or a list naming built-in MiniWoB-style tasks: collect plays their oracles. */
export function isMiniwobSpec(spec: string): boolean {
  return spec.split(',').some((t) => t.trim().startsWith('miniwob'));
}

/** `miniwob` / `miniwob.*` (every built-in task) or `miniwob.<name>,…` → task names as the env takes them. */
export function parseMiniwobTasks(spec: string): string[] {
  const known = miniwobTasks.map((task) => `miniwob.${task.name}`);
  const tasks = spec
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean)
    .flatMap((t) => (t === 'miniwob' || t === 'miniwob.*' ? known : [t]));
  for (const task of tasks)
    if (!known.includes(task))
      throw new UsageError(
        `--task: "${task}" is not a built-in MiniWoB task (miniwob, miniwob.* or miniwob.<name>; names: ${known.map((k) => k.slice(8)).join(', ')}); Gauntlet and MiniWoB tasks are collected in separate runs`,
        'task',
      );
  return [...new Set(tasks)];
}

/** Plays one episode of `task` (`miniwob.<name>`) with its oracle, looking the task up by that name. */
function runMiniwobOracleByName(
  env: EpisodeEnv,
  task: string,
  seed: number,
  format: ObservationFormat,
): Promise<Trajectory> {
  const name = task.replace(/^miniwob\./, '');
  const definition = miniwobTasks.find((t) => t.name === name);
  if (!definition) throw new UsageError(`no built-in MiniWoB task ${JSON.stringify(task)}`);
  return runMiniwobOracleEpisode(env, definition, task, seed, format);
}

/** `collect` for built-in MiniWoB tasks: oracle episodes to <out>/sft.jsonl (no DPO pairs), metrics per task. */
export async function collectMiniwob(
  flags: OptionValues<typeof COLLECT_OPTIONS> & { out: string },
  io: CommandIo,
  signal: AbortSignal,
): Promise<number> {
  if (flags['start-step'] !== undefined)
    throw new UsageError('--start-step applies to Gauntlet tasks only', 'start-step');
  const tasks = parseMiniwobTasks(flags.task);
  const seeds = parseSeeds(flags.seeds);
  const concurrency = flags.concurrency;
  const format = flags['observation-format'] as ObservationFormat;
  const started = performance.now();
  const file = join(flags.out, 'sft.jsonl');
  const tally = new Progress('collect', 0, io.err);
  const have = await readField(file, 'episode', (line) => tally.note(`${file}:${line} is not JSON; ignored`));
  // Seed-major: a run stopped early still holds every task.
  const all = seeds.flatMap((seed) => tasks.map((task) => ({ task, seed, key: episodeKey(task, seed) })));
  const jobs = all.filter((job) => !have.has(job.key));
  const progress = new Progress('collect', jobs.length, io.err);
  if (jobs.length < all.length)
    progress.note(`${all.length - jobs.length} of ${all.length} episodes are already in ${flags.out}; skipping them`);
  if (jobs.length === 0) return 0;
  const perTask: Record<string, { attempts: number; solved: number; turns: number }> = {};
  let added = 0;
  const pool = await openInProcessEnvs(Math.min(concurrency, jobs.length), flags['chromium-path']);
  try {
    await onPorts(pool.ports, jobs, signal, async (port, job) => {
      const episode = await runMiniwobOracleByName(port, job.task, job.seed, format);
      const records = oracleSftRecords(episode);
      await appendRecords(file, records);
      added += records.length;
      const row = (perTask[job.task] ??= { attempts: 0, solved: 0, turns: 0 });
      row.attempts += 1;
      row.solved += records.length;
      row.turns += episode.turns.length;
      const why = episode.error ? `: ${episode.error.message}` : '';
      progress.episode(
        episode.outcome === 'success',
        `${job.task} seed ${job.seed}: ${episode.outcome}, ${episode.turns.length} actions${why}`,
      );
    });
  } finally {
    await pool.close();
  }
  const runDir = join(
    flags.out,
    'runs',
    `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomUUID().slice(0, 8)}`,
  );
  await mkdir(runDir, { recursive: true });
  const per_task = Object.fromEntries(
    Object.entries(perTask).map(([task, r]) => [
      task,
      { ...r, success_rate: r.solved / r.attempts, actions_mean: r.turns / r.attempts },
    ]),
  );
  await writeFile(
    join(runDir, 'metrics.json'),
    JSON.stringify(
      { tasks, seeds, observation_format: format, sft_records_added: added, seconds: seconds(started), per_task },
      null,
      2,
    ) + '\n',
  );
  progress.note(`added ${added} SFT records to ${file} (${rate(added, started)}); metrics in ${runDir}/metrics.json`);
  return 0;
}
