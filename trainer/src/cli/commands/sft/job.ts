import { join } from 'node:path';
import { loraScale } from '../../../lora/config.js';
import type { TrainSequence } from '../../../train/batch.js';
import { runSftSequences } from '../../../train/sft.js';
import { LoraTrainer } from '../../../train/trainer.js';
import { EXIT_INTERRUPTED, EXIT_OK, UsageError, type CommandIo } from '../../command.js';
import { StepProgress } from '../../progress.js';
import { stepReport } from '../step-report.js';
import { loadSftData, sftMaxLength } from './inputs.js';
import { loadTrainingModel } from '../training-model.js';
import { checkAdapterOutDir } from './output.js';
import { loadSftCheckpoint, saveSftCheckpoint, trainingDigest, writeTrainedOutput } from './checkpoint.js';
import { formatTrainSpec, trainsBaseWeights } from '../../../train/trainable.js';
import type { WeightMap } from '../../../model/weights.js';
import { defaultMicroBatch, type SftSettings } from './settings.js';

/**
 * Mean negative log-likelihood of the completion tokens alone, from a step's per-token log-probs:
 * those of `extras.completion` (see withPromptWeight), else those of mask 1.
 */
export function completionLoss(batch: readonly TrainSequence[], logprobs: readonly Float32Array[]): number {
  let sum = 0;
  let count = 0;
  batch.forEach((sequence, k) => {
    const completion = sequence.extras?.['completion'];
    const isCompletion = Array.isArray(completion) ? completion : sequence.mask;
    for (let t = 1; t < isCompletion.length; t++) {
      if (isCompletion[t] !== 1) continue;
      sum -= logprobs[k]![t]!;
      count++;
    }
  });
  return count === 0 ? 0 : sum / count;
}

/**
 * The sft command's work: check the output folder, load model, tokenizer and data (failing before
 * any training on a bad file or line), train with a progress line per step, then write the adapter.
 */
export async function runSftJob(s: SftSettings, io: CommandIo, signal: AbortSignal): Promise<number> {
  // A resumed run continues into its own folder, which holds its checkpoints.
  await checkAdapterOutDir(s.outDir, s.force || s.resume !== undefined);
  const model = await loadTrainingModel(s.modelDir, (line) => io.err(`sft: ${line}`));
  const { config, tokenizer, baseModel } = model;
  const maxLength = sftMaxLength(s.maxLength, config);
  const belowModel = maxLength < config.maxPositionEmbeddings; // then --max-length is what to raise
  const data = await loadSftData(s.dataFile, tokenizer, config, maxLength, belowModel, io, {
    promptLossWeight: s.promptLossWeight,
    demoConditioned: s.demoConditioned,
  });

  const perStep = s.batchSize * s.gradAccum;
  const microBatch = s.microBatch ?? defaultMicroBatch(s.batchSize, maxLength);
  const steps = s.steps ?? Math.max(1, Math.ceil(((s.epochs ?? 1) * data.sequences.length) / perStep));
  if (s.schedule !== 'constant' && steps <= s.warmup) {
    throw new UsageError(
      `sft: ${steps} step(s) leave nothing after --warmup ${s.warmup} for the ${s.schedule} schedule; pass --steps or lower --warmup`,
      'warmup',
    );
  }
  const run = {
    train: formatTrainSpec(s.train),
    seed: s.seed,
    totalSteps: steps,
    sequencesPerStep: Math.min(perStep, data.sequences.length),
    examples: trainingDigest(data.sequences),
  };
  const resumed = s.resume ? await loadSftCheckpoint(s.resume, model, s.train, run) : undefined;
  const trainer = await LoraTrainer.create({
    config,
    weights: resumed?.weights ?? model.weights,
    lora: s.lora,
    train: s.train,
    ...(resumed?.adapter ? { adapter: resumed.adapter } : {}),
    seed: s.seed,
    schedule: { lr: s.lr, warmupSteps: s.warmup, decay: s.schedule, totalSteps: steps },
    microBatchSize: microBatch,
    runtime: { executionProvider: s.device, ...(s.threads ? { intraOpNumThreads: s.threads } : {}) },
  });
  if (resumed) {
    trainer.importState(resumed.state);
    io.err(`sft: resumed from ${s.resume} at step ${resumed.state.step} of ${steps}`);
  }
  const tokens = data.sequences.reduce((n, q) => n + q.tokens.length, 0);
  const { rank, alpha, targets } = s.lora;
  io.err(
    `sft: ${data.sequences.length} examples (${tokens} tokens) from ${s.dataFile}; ${steps} steps of ${Math.min(perStep, data.sequences.length)} sequences, ${microBatch} per pass`,
  );
  if (trainer.trainsAdapter)
    io.err(
      `sft: LoRA r ${rank}, alpha ${alpha} (scale ${+loraScale(s.lora).toFixed(4)}) on ${targets.join(', ')}; model ${baseModel}`,
    );
  if (trainsBaseWeights(s.train))
    io.err(
      `sft: --train ${run.train}: ${trainer.trainedWeights.size} base weight tensors (${countValues(trainer.trainedWeights)} values) trained; model ${baseModel}`,
    );
  if (s.promptLossWeight > 0)
    io.err(`sft: prompt tokens trained too, at loss weight ${s.promptLossWeight} (the loss is their weighted mean)`);

  const progress = new StepProgress(steps);
  const recordStep = await stepReport(s.outDir, resumed?.state.step);
  const losses: number[] = [];
  try {
    await runSftSequences(trainer, data.sequences, {
      steps,
      batchSize: perStep,
      seed: s.seed,
      startStep: resumed?.state.step ?? 0,
      signal,
      onStep: async (result, batch) => {
        losses.push(result.loss);
        const processed = batch.reduce((n, q) => n + q.tokens.length - 1, 0);
        const completion = s.promptLossWeight > 0 ? completionLoss(batch, result.logprobs) : undefined;
        await recordStep(result.step, {
          loss: result.loss,
          learning_rate: result.lr,
          grad_norm: result.gradNorm,
          num_tokens: processed,
          ...(completion !== undefined ? { completion_loss: completion } : {}),
        });
        io.err(
          progress.line({
            step: result.step,
            loss: result.loss,
            ...(completion !== undefined ? { completionLoss: completion } : {}),
            lr: result.lr,
            gradNorm: result.gradNorm,
            tokens: processed,
          }),
        );
        if (s.saveEvery && result.step % s.saveEvery === 0 && result.step < steps && !signal.aborted) {
          const dir = join(s.outDir, `checkpoint-${result.step}`);
          await saveSftCheckpoint(dir, trainer, model, run);
          io.err(`sft: saved checkpoint ${dir}`);
        }
      },
    });
  } catch (error) {
    if (!signal.aborted) throw error;
  } finally {
    await trainer.release();
  }
  if (signal.aborted) {
    io.err(`sft: interrupted after ${losses.length} of ${steps} steps; ${s.outDir} holds no final adapter`);
    return EXIT_INTERRUPTED;
  }
  await writeTrainedOutput(s.outDir, trainer, model);
  const [first, last] = [losses[0] ?? NaN, losses.at(-1) ?? NaN];
  const what = trainsBaseWeights(s.train)
    ? `model folder (--train ${run.train}${trainer.trainsAdapter ? ', LoRA merged' : ''})`
    : `PEFT adapter (r ${rank}, ${trainer.adapter.modules.size} modules)`;
  io.out(`Wrote ${what} to ${s.outDir}; loss ${first.toFixed(4)} → ${last.toFixed(4)} in ${steps} steps`);
  return EXIT_OK;
}

function countValues(weights: WeightMap): number {
  let n = 0;
  for (const w of weights.values()) n += w.data.length;
  return n;
}
