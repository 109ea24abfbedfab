import { join } from 'node:path';
import { loraScale } from '../../lora/config.js';
import type { TrainSequence } from '../../train/batch.js';
import { runSftSequences } from '../../train/sft.js';
import { LoraTrainer } from '../../train/trainer.js';
import { EXIT_INTERRUPTED, EXIT_OK, UsageError, type CommandIo } from '../command.js';
import { StepProgress } from '../progress.js';
import { loadSftData, sftMaxLength } from './sft-inputs.js';
import { loadTrainingModel } from './training-model.js';
import { checkAdapterOutDir, writeAdapterFolder } from './sft-output.js';
import { defaultMicroBatch, type SftSettings } from './sft-settings.js';

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
  await checkAdapterOutDir(s.outDir, s.force);
  const { config, weights, tokenizer, baseModel } = await loadTrainingModel(s.modelDir, (line) =>
    io.err(`sft: ${line}`),
  );
  const maxLength = sftMaxLength(s.maxLength, config);
  const belowModel = maxLength < config.maxPositionEmbeddings; // then --max-length is what to raise
  const data = await loadSftData(s.dataFile, tokenizer, config, maxLength, belowModel, io, s.promptLossWeight);

  const perStep = s.batchSize * s.gradAccum;
  const microBatch = s.microBatch ?? defaultMicroBatch(s.batchSize, maxLength);
  const steps = s.steps ?? Math.ceil(data.sequences.length / perStep);
  if (s.schedule !== 'constant' && steps <= s.warmup) {
    throw new UsageError(
      `sft: ${steps} step(s) leave nothing after --warmup ${s.warmup} for the ${s.schedule} schedule; pass --steps or lower --warmup`,
      'sft',
    );
  }
  const trainer = await LoraTrainer.create({
    config,
    weights,
    lora: s.lora,
    seed: s.seed,
    schedule: { lr: s.lr, warmupSteps: s.warmup, decay: s.schedule, totalSteps: steps },
    microBatchSize: microBatch,
    runtime: { executionProvider: s.device, ...(s.threads ? { intraOpNumThreads: s.threads } : {}) },
  });
  const tokens = data.sequences.reduce((n, q) => n + q.tokens.length, 0);
  const { rank, alpha, targets } = s.lora;
  io.err(
    `sft: ${data.sequences.length} examples (${tokens} tokens) from ${s.dataFile}; ${steps} steps of ${Math.min(perStep, data.sequences.length)} sequences, ${microBatch} per pass`,
  );
  io.err(
    `sft: LoRA r ${rank}, alpha ${alpha} (scale ${+loraScale(s.lora).toFixed(4)}) on ${targets.join(', ')}; model ${baseModel}`,
  );
  if (s.promptLossWeight > 0)
    io.err(`sft: prompt tokens trained too, at loss weight ${s.promptLossWeight} (the loss is their weighted mean)`);

  const progress = new StepProgress(steps);
  const losses: number[] = [];
  try {
    await runSftSequences(trainer, data.sequences, {
      steps,
      batchSize: perStep,
      seed: s.seed,
      signal,
      onStep: async (result, batch) => {
        losses.push(result.loss);
        const processed = batch.reduce((n, q) => n + q.tokens.length - 1, 0);
        io.err(
          progress.line({
            step: result.step,
            loss: result.loss,
            ...(s.promptLossWeight > 0 ? { completionLoss: completionLoss(batch, result.logprobs) } : {}),
            lr: result.lr,
            gradNorm: result.gradNorm,
            tokens: processed,
          }),
        );
        if (s.saveEvery && result.step % s.saveEvery === 0 && result.step < steps && !signal.aborted) {
          const dir = join(s.outDir, `checkpoint-${result.step}`);
          await writeAdapterFolder(dir, trainer.adapter, baseModel);
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
  await writeAdapterFolder(s.outDir, trainer.adapter, baseModel);
  const [first, last] = [losses[0]!, losses.at(-1)!];
  io.out(
    `Wrote PEFT adapter (r ${rank}, ${trainer.adapter.modules.size} modules) to ${s.outDir}; loss ${first.toFixed(4)} → ${last.toFixed(4)} in ${steps} steps`,
  );
  return EXIT_OK;
}
