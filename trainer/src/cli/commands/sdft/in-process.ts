import { processedTokens, sdftMetrics, sdftStep } from '../../../train/sdft/step.js';
import { shuffledBatches } from '../../../train/sft.js';
import type { CommandIo } from '../../command.js';
import { stepReport } from '../step-report.js';
import type { SdftInputs } from './inputs.js';
import type { SdftRun } from './sdft-run.js';
import type { SdftSettings } from './settings.js';
import { SdftStepLog } from './step-log.js';
import { StudentSampler } from './student-sampler.js';

/** The seed of a step's j-th sample: fixed by the run's seed and the step, so a resumed run samples the same. */
const sampleSeed = (seed: number, step: number, j: number) => (seed * 1_000_003 + step * 1_009 + j) >>> 0;

/**
 * In-process sampling: per step the student samples from a batch of the demo's states with the
 * trainer's own generation engine, then sdftStep's update. Null when a signal stopped it.
 */
export async function trainInProcess(
  s: SdftSettings,
  io: CommandIo,
  signal: AbortSignal,
  job: SdftRun,
  inputs: SdftInputs,
): Promise<{ losses: number[] } | null> {
  const { model, parts, run, resumed } = job;
  const { config } = model;
  const { states, steps } = inputs;
  const sampler = job.open(await StudentSampler.create(config, model.weights, job.runtime));
  const log = new SdftStepLog(io, steps, await stepReport(s.outDir, resumed?.state.step));
  const first = resumed?.state.step ?? 0;
  const batches = shuffledBatches(states.length, s.batchSize, s.seed);
  for (let step = 0; step < first; step++) batches.next();
  try {
    for (let step = first; step < steps && !signal.aborted; step++) {
      const batch = batches.next().value.map((i) => states[i]!);
      const result = await sdftStep({ ...parts, sampler }, batch, {
        emaAlpha: s.emaAlpha,
        vocab: config.vocabSize,
        topK: s.topK,
        sampling: { temperature: s.temperature, maxTokens: s.maxNewTokens },
        seeds: batch.map((_, j) => sampleSeed(s.seed, step, j)),
        signal,
      });
      await log.step(result.step, sdftMetrics(result, processedTokens(batch, result)));
      await log.checkpoint({ ...s, signal }, result.step, { ...parts, model, run });
    }
  } catch (error) {
    if (!signal.aborted) throw error;
  }
  if (signal.aborted) return log.interrupted(s.outDir, steps - first);
  return { losses: log.losses };
}
