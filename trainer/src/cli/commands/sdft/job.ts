import { join } from 'node:path';
import { copyAdapter } from '../../../lora/adapter.js';
import { loadAdapter } from '../../../lora/peft.js';
import { DistributionScorer } from '../../../train/sdft/distribution-scorer.js';
import { sdftLoss } from '../../../train/sdft/loss.js';
import { sdftStep, type EncodedState, type SdftParts } from '../../../train/sdft/step.js';
import { StudentSampler } from './student-sampler.js';
import { shuffledBatches } from '../../../train/sft.js';
import { LORA_ONLY } from '../../../train/trainable.js';
import { LoraTrainer } from '../../../train/trainer.js';
import { EXIT_INTERRUPTED, EXIT_OK, type CommandIo } from '../../command.js';
import { StepProgress } from '../../progress.js';
import { loadSftCheckpoint, saveSftCheckpoint, type ResumedSft, type SftRunFields } from '../sft/checkpoint.js';
import { checkAdapterOutDir, writeAdapterFolder } from '../sft/output.js';
import { stepReport } from '../step-report.js';
import { loadTrainingModel, type TrainingModel } from '../training-model.js';
import { loadSdftInputs } from './inputs.js';
import type { SdftSettings } from './settings.js';

/** A checkpoint's teacher adapter, beside the student's: resume needs both. */
export const TEACHER_DIR = 'teacher';

/** The seed of a step's j-th sample: fixed by the run's seed and the step, so a resumed run samples the same. */
const sampleSeed = (seed: number, step: number, j: number) => (seed * 1_000_003 + step * 1_009 + j) >>> 0;

/**
 * The sdft command's work: read the demonstration and the model, encode the demo's states, then
 * per step let the student sample from a batch of states, score the teacher on the same tokens,
 * step the student on the KL and move the teacher; write the student's adapter at the end.
 */
export async function runSdftJob(s: SdftSettings, io: CommandIo, signal: AbortSignal): Promise<number> {
  await checkAdapterOutDir(s.outDir, s.force || s.resume !== undefined, 'sdft');
  const model = await loadTrainingModel(s.modelDir, (line) => io.err(`sdft: ${line}`));
  const { config } = model;
  const { states, steps, perStep } = await loadSdftInputs(s, model, io);
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
    const sampler = open(await StudentSampler.create(config, model.weights, runtime));
    return await train(s, io, signal, model, { trainer, teacher, scorer, sampler }, { states, steps, run, resumed });
  } finally {
    await Promise.all(sessions.map((session) => session.release()));
  }
}

/** The steps, the checkpoints and the final adapter, once every session is open. */
async function train(
  s: SdftSettings,
  io: CommandIo,
  signal: AbortSignal,
  model: TrainingModel,
  parts: SdftParts,
  plan: { states: EncodedState[]; steps: number; run: SftRunFields; resumed: ResumedSft | undefined },
): Promise<number> {
  const { trainer, teacher } = parts;
  const { config, baseModel } = model;
  const { states, steps, run, resumed } = plan;
  if (resumed) {
    trainer.importState(resumed.state);
    io.err(`sdft: resumed from ${s.resume} at step ${resumed.state.step} of ${steps}`);
  }
  const { rank, alpha, targets } = trainer.adapter.config;
  io.err(
    `sdft: LoRA r ${rank}, alpha ${alpha} on ${targets.join(', ')}; model ${baseModel}; KL ${describeMix(s.mix)} over ${s.topK ? `the teacher's top ${s.topK}` : `the whole vocabulary (${config.vocabSize})`}; EMA rate ${s.emaAlpha}`,
  );

  const progress = new StepProgress(steps);
  const recordStep = await stepReport(s.outDir, resumed?.state.step);
  const losses: number[] = [];
  const first = resumed?.state.step ?? 0;
  const batches = shuffledBatches(states.length, s.batchSize, s.seed);
  for (let step = 0; step < first; step++) batches.next();
  try {
    for (let step = first; step < steps && !signal.aborted; step++) {
      const batch = batches.next().value.map((i) => states[i]!);
      const result = await sdftStep(parts, batch, {
        emaAlpha: s.emaAlpha,
        vocab: config.vocabSize,
        topK: s.topK,
        sampling: { temperature: s.temperature, maxTokens: s.maxNewTokens },
        seeds: batch.map((_, j) => sampleSeed(s.seed, step, j)),
        signal,
      });
      losses.push(result.loss);
      const [forward, reverse] = [result.metrics['forward_kl']!, result.metrics['reverse_kl']!];
      const processed = batch.reduce((n, q) => n + q.student.length + q.teacher.length, 0) + 2 * result.sampledTokens;
      await recordStep(result.step, {
        loss: result.loss,
        forward_kl: forward,
        reverse_kl: reverse,
        learning_rate: result.lr,
        grad_norm: result.gradNorm,
        sampled_tokens: result.sampledTokens,
        num_tokens: processed,
      });
      const line = progress.line({
        step: result.step,
        loss: result.loss,
        lr: result.lr,
        gradNorm: result.gradNorm,
        tokens: processed,
      });
      io.err(`${line}  fwd-kl ${kl(forward)}  rev-kl ${kl(reverse)}  sampled ${result.sampledTokens}`);
      if (s.saveEvery && result.step % s.saveEvery === 0 && result.step < steps && !signal.aborted) {
        const dir = join(s.outDir, `checkpoint-${result.step}`);
        await saveSftCheckpoint(dir, trainer, model, run, (folder) =>
          writeAdapterFolder(join(folder, TEACHER_DIR), teacher, baseModel),
        );
        io.err(`sdft: saved checkpoint ${dir}`);
      }
    }
  } catch (error) {
    if (!signal.aborted) throw error;
  }
  if (signal.aborted) {
    io.err(`sdft: interrupted after ${losses.length} of ${steps - first} steps; ${s.outDir} holds no final adapter`);
    return EXIT_INTERRUPTED;
  }
  await writeAdapterFolder(s.outDir, trainer.adapter, baseModel);
  const [head, last] = [losses[0] ?? NaN, losses.at(-1) ?? NaN];
  io.out(
    `Wrote PEFT adapter (r ${rank}, ${trainer.adapter.modules.size} modules) to ${s.outDir}; KL ${kl(head)} → ${kl(last)} in ${steps} steps`,
  );
  return EXIT_OK;
}

/** KLs of a nearly trained student are small: four significant digits, not four decimals. */
const kl = (value: number) => value.toPrecision(4);

function describeMix(mix: number): string {
  if (mix === 1) return 'reverse (student ‖ teacher)';
  if (mix === 0) return 'forward (teacher ‖ student)';
  return `${1 - mix} × forward + ${mix} × reverse`;
}
