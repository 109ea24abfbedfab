import type { CheckpointState, JsonValue, LoadedCheckpoint } from '../checkpoint/index.js';
import type { TaskSampler } from '../curriculum/task-sampler.js';
import type { GrpoLearner } from '../../train/grpo/index.js';
import { TrajectoryGroup } from '@gauntlet/proto/rollout';
import type { GrpoLoop, PendingGroups } from './grpo-loop.js';

/** The parts of a run a checkpoint captures and a resume restores. */
export interface RunParts {
  learner: GrpoLearner;
  sampler: TaskSampler;
  /** The run's settings as JSON (recorded; a resume checks the run name against it). */
  config: JsonValue;
  baseModel: string;
}

/** A checkpoint of the run after `loop.version` updates (taken between updates). */
export function checkpointOf(
  loop: Pick<GrpoLoop, 'version' | 'counts' | 'pending'> & Partial<Pick<GrpoLoop, 'earlier'>>,
  parts: RunParts,
): CheckpointState {
  return {
    step: loop.version,
    version: loop.version,
    ...parts.learner.trainer.policy,
    optimizer: parts.learner.trainer.exportState(),
    rngState: { sampler: parts.sampler.stream.state },
    config: parts.config,
    curriculum: parts.sampler.curriculum.state() as unknown as JsonValue,
    // The loop's groups between submission and training, so a resumed run trains on what this one would have.
    counters: { counts: { ...loop.counts }, pending: loop.pending() } as unknown as JsonValue,
    baseModel: parts.baseModel,
    // Groups in flight may still ask for these: a resumed in-process server serves them again.
    earlier: loop.earlier?.() ?? [],
  };
}

/**
 * Puts a run back where the checkpoint left it: optimizer moments and step, the task sampler's
 * stream, the curriculum; returns the groups the loop takes over. (The trained tensors themselves
 * are passed to the learner when it is created: `adapter` and `trained`.)
 */
export function restoreRun(
  checkpoint: LoadedCheckpoint,
  parts: Pick<RunParts, 'learner' | 'sampler'>,
): PendingGroups | undefined {
  parts.learner.trainer.importState(checkpoint.optimizer);
  const rng = checkpoint.rngState as { sampler?: unknown };
  if (typeof rng?.sampler !== 'number')
    throw new RangeError(`checkpoint ${checkpoint.path}: rngState.sampler is missing; it was not written by grpo`);
  parts.sampler.stream.state = rng.sampler;
  parts.sampler.curriculum.restore(checkpoint.curriculum as never);
  const pending = (checkpoint.counters as { pending?: PendingGroups } | null)?.pending;
  return pending
    ? {
        outstanding: pending.outstanding,
        batch: pending.batch.map((b) => ({ ...b, group: TrajectoryGroup.parse(b.group) })),
      }
    : undefined;
}
