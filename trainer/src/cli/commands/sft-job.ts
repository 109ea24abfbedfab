import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loraScale } from '../../lora/config.js';
import { ModelTokenizer } from '../../model/tokenizer.js';
import { writeTinyModel } from '../../model/tiny.js';
import { loadModel } from '../../model/weights.js';
import { DataFileError, readSftJsonl } from '../../train/sft-data.js';
import { encodeSftRecords } from '../../train/sft-encode.js';
import { runSftSequences } from '../../train/sft.js';
import { LoraTrainer } from '../../train/trainer.js';
import { EXIT_INTERRUPTED, EXIT_OK, UsageError, type CommandIo } from '../command.js';
import { StepProgress } from '../progress.js';
import { checkAdapterOutDir, writeAdapterFolder } from './sft-output.js';
import type { SftSettings } from './sft-settings.js';

/**
 * The sft command's work: check the output folder, load model, tokenizer and data (failing before
 * any training on a bad file or line), train with a progress line per step, then write the adapter.
 */
export async function runSftJob(s: SftSettings, io: CommandIo, signal: AbortSignal): Promise<number> {
  await checkAdapterOutDir(s.outDir, s.force);
  const modelDir = s.modelDir ?? (await freshTinyModel(io));
  const { config, weights } = await loadModel(modelDir);
  const tokenizer = await ModelTokenizer.load(modelDir);
  if (s.maxLength !== undefined && s.maxLength > config.maxPositionEmbeddings) {
    throw new UsageError(
      `sft: --max-length ${s.maxLength} exceeds the model's max_position_embeddings (${config.maxPositionEmbeddings})`,
      'sft',
    );
  }
  const maxLength = s.maxLength ?? Math.min(1024, config.maxPositionEmbeddings);
  const data = encodeSftRecords(s.dataFile, await readSftJsonl(s.dataFile), tokenizer, {
    maxLength,
    vocabSize: config.vocabSize,
  });
  if (data.truncated > 0) io.err(`sft: ${data.truncated} example(s) longer than ${maxLength} tokens were truncated`);
  if (data.dropped.length > 0)
    io.err(`sft: dropped line(s) ${data.dropped.join(', ')}: nothing left to train within ${maxLength} tokens`);
  if (data.sequences.length === 0)
    throw new DataFileError(
      s.dataFile,
      undefined,
      `no example has a trained token within the first ${maxLength} tokens`,
    );

  const perStep = s.batchSize * s.gradAccum;
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
    microBatchSize: s.microBatch,
    runtime: { executionProvider: s.device, ...(s.threads ? { intraOpNumThreads: s.threads } : {}) },
  });
  const tokens = data.sequences.reduce((n, q) => n + q.tokens.length, 0);
  const { rank, alpha, targets } = s.lora;
  io.err(
    `sft: ${data.sequences.length} examples (${tokens} tokens) from ${s.dataFile}; ${steps} steps of ${Math.min(perStep, data.sequences.length)} sequences`,
  );
  io.err(
    `sft: LoRA r ${rank}, alpha ${alpha} (scale ${+loraScale(s.lora).toFixed(4)}) on ${targets.join(', ')}; model ${modelDir}`,
  );

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
            lr: result.lr,
            gradNorm: result.gradNorm,
            tokens: processed,
          }),
        );
        if (s.saveEvery && result.step % s.saveEvery === 0 && result.step < steps && !signal.aborted) {
          const dir = join(s.outDir, `checkpoint-${result.step}`);
          await writeAdapterFolder(dir, trainer.adapter, modelDir);
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
  await writeAdapterFolder(s.outDir, trainer.adapter, modelDir);
  const [first, last] = [losses[0]!, losses.at(-1)!];
  io.out(
    `Wrote PEFT adapter (r ${rank}, ${trainer.adapter.modules.size} modules) to ${s.outDir}; loss ${first.toFixed(4)} → ${last.toFixed(4)} in ${steps} steps`,
  );
  return EXIT_OK;
}

async function freshTinyModel(io: CommandIo): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'gauntlet-tiny-model-'));
  await writeTinyModel(dir);
  io.err(
    `sft: no --model given, so training the built-in tiny model (qwen2, seed 0) written to ${dir}; 'gauntlet-trainer init-tiny DIR' writes the same model`,
  );
  return dir;
}
