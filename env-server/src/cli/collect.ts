import { randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Trajectory } from '@gauntlet/proto/rollout';
import { collectPreferencePairs } from '../collect/gauntlet/dpo-probe.js';
import { runMetrics } from '../collect/gauntlet/metrics.js';
import { sftRecords } from '../collect/gauntlet/records.js';
import { episodeKey } from '../collect/records.js';
import { runGauntletOracleEpisode } from '../collect/gauntlet/rollout.js';
import { onPorts, openInProcessEnvs } from './in-process-envs.js';
import type { ObservationFormat } from '@gauntlet/proto';
import { defineCommand, UsageError, type CommandIo, type OptionValues } from '@gauntlet/proto/cli';
import { COLLECT_OPTIONS } from './gauntlet-args.js';
import { collectMiniwob, isMiniwobSpec } from './collect-miniwob.js';
import { appendRecords, readField } from './jsonl-store.js';
import { Progress, rate, seconds } from './progress.js';
import { describe, summary, sweepSettings } from './solve.js';

export const collectCommand = defineCommand({
  name: 'collect',
  summary: 'Write oracle SFT trajectories and DPO pairs as JSONL',
  description: `Records oracle trajectories (SFT) and preference pairs (DPO). Writes, appending to earlier runs in
the same folder (episodes already there, same task, seed and start step, are skipped, not redone;
with nothing left to do nothing is written):
  <dir>/sft.jsonl       one line per solved step: {"messages": [system, user observation, assistant action, …],
                        id, episode, task, seed, step, type, reward}; assistant turns carry their reward
  <dir>/dpo.jsonl       {"prompt": [system, the step's earlier user/assistant turns, user], "chosen": [oracle
                        action], "rejected": [action that failed from the same state], rejected_outcome, id,
                        episode, task, seed, step, type}
  <dir>/runs/<run-id>/metrics.json   this run's per-step and per-type success, actions and time

Built-in MiniWoB-style tasks (--task miniwob for all of them, or miniwob.<name>,…) are played by
their oracles and give sft.jsonl records only (no DPO pairs): one per solved episode, with the
single-page system prompt and observations rendered as a rollout worker renders them.`,
  options: COLLECT_OPTIONS,
  examples: [
    'npx gauntlet-env collect --out data/gauntlet --task gauntlet --seeds 0-199 --concurrency 4',
    'npx gauntlet-env collect --out data/miniwob --task miniwob --seeds 0-19',
  ],
  run: ({ values, io, signal }) => collect(values, io, signal),
});

async function collect(
  values: OptionValues<typeof COLLECT_OPTIONS>,
  io: CommandIo,
  signal: AbortSignal,
): Promise<number> {
  if (!values.out) throw new UsageError('--out DIR is required', 'out');
  if (isMiniwobSpec(values.task)) return collectMiniwob({ ...values, out: values.out }, io, signal);
  const settings = sweepSettings(values);
  const format = values['observation-format'] as ObservationFormat;
  const started = performance.now();
  const dpo = !values['no-dpo'];
  const perStep = values['dpo-per-step'];
  const files = { sft: join(values.out, 'sft.jsonl'), dpo: join(values.out, 'dpo.jsonl') };
  const progress = new Progress('collect', 0, io.err);
  const warn = (file: string) => (line: number) =>
    progress.note(`${file}:${line} is not JSON (an interrupted write?); ignored`);
  const haveSft = await readField(files.sft, 'episode', warn(files.sft));
  const haveDpo = await readField(files.dpo, 'episode', warn(files.dpo));
  const startStep = (settings.options['start_step'] as number | undefined) ?? 1;
  const all = settings.tasks.flatMap((task) =>
    settings.seeds.map((seed) => ({ task, seed, key: episodeKey(task, seed, task === 'gauntlet' ? startStep : 1) })),
  );
  const jobs = all.filter((job) => !haveSft.has(job.key) || (dpo && !haveDpo.has(job.key)));
  const tally = new Progress('collect', jobs.length, io.err);
  if (jobs.length < all.length)
    tally.note(`${all.length - jobs.length} of ${all.length} episodes are already in ${values.out}; skipping them`);
  if (jobs.length === 0) {
    tally.note('nothing to collect: no run folder written');
    return 0;
  }
  const episodes: Trajectory[] = [];
  let sftLines = 0;
  let dpoLines = 0;
  const pool = await openInProcessEnvs(settings.concurrency, settings.chromiumPath);
  try {
    await onPorts(pool.ports, jobs, signal, async (port, job) => {
      const options = job.task === 'gauntlet' ? settings.options : {};
      let detail = '';
      if (!haveSft.has(job.key)) {
        const episode = await runGauntletOracleEpisode(port, job.task, job.seed, options, format);
        episodes.push(episode);
        const records = sftRecords(episode, job.task === 'gauntlet' ? startStep : 1);
        await appendRecords(files.sft, records);
        sftLines += records.length;
        detail = describe(episode);
      }
      if (dpo && !haveDpo.has(job.key)) {
        const probe = await collectPreferencePairs(port, job.task, job.seed, {
          perStep,
          resetOptions: options,
          format,
        });
        await appendRecords(files.dpo, probe.pairs);
        dpoLines += probe.pairs.length;
        const stalled =
          probe.outcome === 'success' ? '' : ` (probe ${probe.outcome} at ${probe.solved}/${probe.total})`;
        detail += `${detail ? ', ' : `${job.task} seed ${job.seed}: `}${probe.pairs.length} DPO pairs${stalled}`;
      }
      const played = episodes.find((e) => e.task === job.task && e.seed === job.seed);
      tally.episode(played ? played.outcome === 'success' : true, detail);
    });
  } finally {
    await pool.close();
  }
  const runDir = join(
    values.out,
    'runs',
    `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomUUID().slice(0, 8)}`,
  );
  const metrics = runMetrics(episodes);
  await mkdir(runDir, { recursive: true });
  await writeFile(
    join(runDir, 'metrics.json'),
    JSON.stringify(
      {
        settings,
        observation_format: format,
        sft_records_added: sftLines,
        dpo_pairs_added: dpoLines,
        seconds: seconds(started),
        ...metrics,
      },
      null,
      2,
    ) + '\n',
  );
  tally.note(
    `added ${sftLines} SFT records to ${files.sft}${dpo ? ` and ${dpoLines} DPO pairs to ${files.dpo}` : ''} (${rate(sftLines + dpoLines, started)}); metrics in ${runDir}/metrics.json`,
  );
  io.out(summary(metrics).trimEnd());
  return 0;
}
