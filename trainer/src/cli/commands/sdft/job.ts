import { join } from 'node:path';
import { copyAdapter } from '../../../lora/adapter.js';
import { loadAdapter } from '../../../lora/peft.js';
import { DistributionScorer } from '../../../train/sdft/distribution-scorer.js';
import { sdftLoss } from '../../../train/sdft/loss.js';
import { LORA_ONLY } from '../../../train/trainable.js';
import { LoraTrainer } from '../../../train/trainer.js';
import { EXIT_INTERRUPTED, EXIT_OK, type CommandIo } from '../../command.js';
import { loadSftCheckpoint } from '../sft/checkpoint.js';
import { checkAdapterOutDir, writeAdapterFolder } from '../sft/output.js';
import { withQueues } from '../grpo/queues.js';
import { loadTrainingModel } from '../training-model.js';
import { trainInProcess } from './in-process.js';
import { loadSdftDemos, loadSdftInputs } from './inputs.js';
import { trainOnRollouts } from './rollouts.js';
import type { SdftRun } from './sdft-run.js';
import type { SdftSettings } from './settings.js';
import { kl, TEACHER_DIR } from './step-log.js';

/**
 * The sdft command's work: read the demonstration and the model, open the student's trainer and
 * the teacher's scorer, then train on the student's samples — in process from the demo's states,
 * or (--rollouts) from episodes the rollout workers play — and write the student's adapter.
 */
export async function runSdftJob(s: SdftSettings, io: CommandIo, signal: AbortSignal): Promise<number> {
  await checkAdapterOutDir(s.outDir, s.force || s.resume !== undefined, 'sdft');
  const rollouts = s.rollouts;
  if (!rollouts) return runSdft(s, io, signal);
  const log = (line: string) => io.err(line);
  return withQueues(rollouts.connection, { timeoutMs: rollouts.redisTimeoutMs, signal, label: 'sdft', log }, () =>
    runSdft(s, io, signal),
  );
}

async function runSdft(s: SdftSettings, io: CommandIo, signal: AbortSignal): Promise<number> {
  const model = await loadTrainingModel(s.modelDir, (line) => io.err(`sdft: ${line}`));
  const { config } = model;
  const inputs = s.rollouts ? undefined : await loadSdftInputs(s, model, io);
  const demos = s.rollouts ? await loadSdftDemos(s, model) : undefined;
  const steps = inputs?.steps ?? s.rollouts!.maxSteps;
  const perStep = inputs?.perStep ?? s.rollouts!.groupsPerUpdate * s.rollouts!.groupSize;
  const run = { train: 'lora', seed: s.seed, totalSteps: steps, sequencesPerStep: perStep };
  const resumed = s.resume ? await loadSftCheckpoint(s.resume, model, LORA_ONLY, run, 'sdft') : undefined;
  const start = resumed?.adapter ?? (s.initAdapter ? await loadAdapter(s.initAdapter, { model: config }) : undefined);
  const resumedTeacher = s.resume ? await loadAdapter(join(s.resume, TEACHER_DIR), { model: config }) : undefined;
  const runtime = { executionProvider: s.device, ...(s.threads ? { intraOpNumThreads: s.threads } : {}) };
  const trainer = await LoraTrainer.create({
    config,
    weights: model.weights,
    lora: start?.config ?? s.lora,
    ...(start ? { adapter: start } : {}),
    seed: s.seed,
    loss: sdftLoss({ mix: s.mix, vocab: config.vocabSize, topK: s.topK }),
    schedule: { lr: s.lr },
    runtime,
  });
  const teacher = resumedTeacher ?? copyAdapter(trainer.adapter);
  // Each session is released however the run ends, a failed start of the next one included.
  const sessions: { release(): Promise<void> }[] = [trainer];
  const open = <T extends { release(): Promise<void> }>(session: T) => (sessions.push(session), session);
  try {
    const scorer = open(
      await DistributionScorer.create({ config, weights: model.weights, lora: teacher.config, runtime }),
    );
    const job: SdftRun = { model, parts: { trainer, teacher, scorer }, run, resumed, runtime, open };
    if (resumed) {
      trainer.importState(resumed.state);
      io.err(`sdft: resumed from ${s.resume} at step ${resumed.state.step} of ${steps}`);
    }
    const { rank, alpha, targets } = trainer.adapter.config;
    io.err(
      `sdft: LoRA r ${rank}, alpha ${alpha} on ${targets.join(', ')}; model ${model.baseModel}; KL ${describeMix(s.mix)} over ${s.topK ? `the teacher's top ${s.topK}` : `the whole vocabulary (${config.vocabSize})`}; EMA rate ${s.emaAlpha}`,
    );
    const done = inputs
      ? await trainInProcess(s, io, signal, job, inputs)
      : await trainOnRollouts(s, io, signal, job, demos!);
    if (!done) return EXIT_INTERRUPTED;
    await writeAdapterFolder(s.outDir, trainer.adapter, model.baseModel);
    const [head, last] = [done.losses[0] ?? NaN, done.losses.at(-1) ?? NaN];
    io.out(
      `Wrote PEFT adapter (r ${rank}, ${trainer.adapter.modules.size} modules) to ${s.outDir}; KL ${kl(head)} → ${kl(last)} in ${steps} steps`,
    );
    return EXIT_OK;
  } finally {
    await Promise.all(sessions.map((session) => session.release()));
  }
}

function describeMix(mix: number): string {
  if (mix === 1) return 'reverse (student ‖ teacher)';
  if (mix === 0) return 'forward (teacher ‖ student)';
  return `${1 - mix} × forward + ${mix} × reverse`;
}
