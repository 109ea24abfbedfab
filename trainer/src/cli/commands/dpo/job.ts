import { appendFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { LoraAdapter } from '../../../lora/adapter.js';
import { loraScale } from '../../../lora/config.js';
import { loadAdapter } from '../../../lora/peft.js';
import type { ModelConfig } from '../../../model/config.js';
import { readDpoJsonl } from '../../../train/dpo/data.js';
import { encodeDpoRecords } from '../../../train/dpo/encode.js';
import { DpoLearner, type DpoStepResult } from '../../../train/dpo/learner.js';
import { runDpo } from '../../../train/dpo/run.js';
import { REFERENCE_CACHE_FILE, scorePairsCached } from '../../../train/dpo/index.js';
import { EXIT_INTERRUPTED, EXIT_OK, UsageError, type CommandIo } from '../../command.js';
import { StepProgress } from '../../progress.js';
import { stepReport } from '../step-report.js';
import { reportDpoData } from './data-report.js';
import type { DpoSettings, ReferenceChoice } from './settings.js';
import { checkAdapterOutDir } from '../sft/output.js';
import { writeTrainedOutput } from '../sft/checkpoint.js';
import { formatTrainSpec, trainsBaseWeights } from '../../../train/trainable.js';
import { loadTrainingModel } from '../training-model.js';

/**
 * The dpo command's work: check the output folder, load model, adapters and pairs (failing before
 * any training on a bad file or line), score the reference once, train with a progress line per
 * step, then write the adapter.
 */
export async function runDpoJob(s: DpoSettings, io: CommandIo, signal: AbortSignal): Promise<number> {
  await checkAdapterOutDir(s.outDir, s.force, 'dpo');
  const model = await loadTrainingModel(s.modelDir, (line) => io.err(`dpo: ${line}`));
  const { config, weights, tokenizer } = model;
  if (s.maxLength !== undefined && s.maxLength > config.maxPositionEmbeddings)
    throw new UsageError(
      `dpo: --max-length ${s.maxLength} exceeds the model's max_position_embeddings (${config.maxPositionEmbeddings})`,
      'max-length',
    );
  const maxLength = s.maxLength ?? config.maxPositionEmbeddings;
  const data = encodeDpoRecords(s.dataFile, await readDpoJsonl(s.dataFile), tokenizer, {
    maxLength,
    vocabSize: config.vocabSize,
  });
  reportDpoData(s.dataFile, data, maxLength, io);
  const init = s.initAdapter ? await loadAdapter(s.initAdapter, { model: config }) : undefined;
  const reference = await referenceAdapter(s.reference, init, config);

  const perStep = s.batchSize * s.gradAccum;
  const steps = s.steps ?? Math.ceil((s.epochs * data.pairs.length) / perStep);
  if (s.schedule !== 'constant' && steps <= s.warmup)
    throw new UsageError(
      `dpo: ${steps} step(s) leave nothing after --warmup ${s.warmup} for the ${s.schedule} schedule; pass --steps or lower --warmup`,
      'warmup',
    );
  const learner = await DpoLearner.create({
    config,
    weights,
    lora: init?.config ?? s.lora,
    train: s.train,
    ...(init ? { adapter: init } : {}),
    seed: s.seed,
    dpo: s.dpo,
    schedule: { lr: s.lr, warmupSteps: s.warmup, decay: s.schedule, totalSteps: steps },
    microBatchPairs: s.microBatch ?? s.batchSize,
    runtime: { executionProvider: s.device, ...(s.threads ? { intraOpNumThreads: s.threads } : {}) },
  });
  const lora = init?.config ?? s.lora;
  const { beta, labelSmoothing, lossType } = s.dpo;
  io.err(
    `dpo: ${data.pairs.length} pairs from ${s.dataFile}; ${steps} steps of ${Math.min(perStep, data.pairs.length)} pairs; ${lossType} loss, beta ${beta}${labelSmoothing ? `, label smoothing ${labelSmoothing}` : ''}`,
  );
  if (learner.trainer.trainsAdapter)
    io.err(
      `dpo: LoRA r ${lora.rank}, alpha ${lora.alpha} (scale ${+loraScale(lora).toFixed(4)}) on ${lora.targets.join(', ')}${init ? ` from ${s.initAdapter}` : ''}; model ${model.baseModel}`,
    );
  if (trainsBaseWeights(s.train))
    io.err(
      `dpo: --train ${formatTrainSpec(s.train)}: ${learner.trainer.trainedWeights.size} base weight tensors trained; model ${model.baseModel}`,
    );
  io.err(`dpo: scoring ${data.pairs.length} pairs under the reference (${describeReference(s)})`);
  if (s.metricsFile) await writeFile(s.metricsFile, '');

  const progress = new StepProgress(steps);
  const recordStep = await stepReport(s.outDir);
  const history: DpoStepResult[] = [];
  try {
    const pairs = await scorePairsCached(learner, data.pairs, reference, {
      file: join(s.outDir, REFERENCE_CACHE_FILE),
      config,
      weights,
      signal,
      onProgress: scoringProgress(io),
      log: (line) => io.err(`dpo: ${line}`),
    });
    await runDpo(learner, pairs, {
      steps,
      batchSize: perStep,
      seed: s.seed,
      signal,
      onStep: async (result) => {
        history.push(result);
        io.err(progressLine(progress, result));
        await recordStep(result.step, result.metrics);
        if (s.metricsFile)
          await appendFile(s.metricsFile, `${JSON.stringify({ step: result.step, ...result.metrics })}\n`);
        if (s.saveEvery && result.step % s.saveEvery === 0 && result.step < steps && !signal.aborted) {
          const dir = join(s.outDir, `checkpoint-${result.step}`);
          await writeTrainedOutput(dir, learner.trainer, model);
          io.err(`dpo: saved checkpoint ${dir}`);
        }
      },
    });
  } catch (error) {
    if (!signal.aborted) throw error;
  } finally {
    await learner.release();
  }
  if (signal.aborted) {
    io.err(`dpo: interrupted after ${history.length} of ${steps} steps; ${s.outDir} holds no final adapter`);
    return EXIT_INTERRUPTED;
  }
  await writeTrainedOutput(s.outDir, learner.trainer, model);
  const [first, last] = [history[0]!.metrics, history.at(-1)!.metrics];
  const what = trainsBaseWeights(s.train)
    ? `model folder (--train ${formatTrainSpec(s.train)}${learner.trainer.trainsAdapter ? ', LoRA merged' : ''})`
    : `PEFT adapter (r ${lora.rank}, ${learner.trainer.adapter.modules.size} modules)`;
  io.out(
    `Wrote ${what} to ${s.outDir}; loss ${first['loss']!.toFixed(4)} → ${last['loss']!.toFixed(4)}, reward margin ${first['rewards/margins']!.toFixed(4)} → ${last['rewards/margins']!.toFixed(4)} in ${steps} steps`,
  );
  return EXIT_OK;
}

/** A line every few seconds while the reference scores the pairs (minutes on a large file), and one at the end. */
function scoringProgress(io: CommandIo, everyMs = 5000): (scored: number, total: number) => void {
  const started = performance.now();
  let last = started;
  return (scored, total) => {
    const now = performance.now();
    if (scored < total && now - last < everyMs) return;
    last = now;
    const rate = scored / Math.max((now - started) / 1000, 1e-3);
    const left = scored < total ? `, about ${Math.ceil((total - scored) / rate)} s left` : '';
    io.err(`dpo: reference scored ${scored}/${total} pairs (${rate.toFixed(1)} pairs/s${left})`);
  };
}

function progressLine(progress: StepProgress, result: DpoStepResult): string {
  const m = result.metrics;
  const line = progress.line({
    step: result.step,
    loss: m['loss']!,
    lr: m['learning_rate']!,
    gradNorm: m['grad_norm']!,
    tokens: result.tokens,
  });
  return `${line}  margin ${m['rewards/margins']!.toFixed(4)}  accuracy ${m['rewards/accuracies']!.toFixed(2)}`;
}

async function referenceAdapter(
  choice: ReferenceChoice,
  init: LoraAdapter | undefined,
  config: ModelConfig,
): Promise<LoraAdapter | null> {
  // Scored before the first update, so the starting adapter itself is the frozen reference.
  if (choice.kind === 'init') return init!;
  if (choice.kind === 'base') return null;
  return loadAdapter(choice.dir, { model: config });
}

function describeReference(s: DpoSettings): string {
  if (s.reference.kind === 'init') return `the starting adapter ${s.initAdapter}, frozen`;
  if (s.reference.kind === 'base') return 'the base model, no adapter';
  return `the adapter ${s.reference.dir}`;
}
