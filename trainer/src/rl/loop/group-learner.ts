import type { TrajectoryGroup } from '@gauntlet/proto/rollout';
import type { PolicyTensors } from '../../train/policy-tensors.js';
import type { TokenLimits } from '../admission/trainable.js';

/** An update the learner made ready from a batch of groups: run it to train. */
export interface PreparedUpdate {
  /** What the batch's conversion found (reward statistics, episodes skipped), recorded with the update's own. */
  metrics: Record<string, number>;
  /** The optimizer step(s); it rejects when the engine refuses the batch (the loop drops it, counted). */
  train(): Promise<Record<string, number>>;
}

/**
 * What the rollout loop trains: GRPO's learner, or SDFT's student and teacher. The loop does the
 * rest (submitting groups of the current version, admission by staleness, publishing, drain,
 * counting).
 */
export interface GroupLearner {
  /** The policy published after each update (the tensors as they stand, copied by the loop). */
  readonly policy: PolicyTensors;
  /** The model trained on: the default limits groups are checked against. */
  readonly modelConfig: { vocabSize: number; maxPositionEmbeddings: number };
  /** Why a group that passed the schema still cannot be trained on, or null when it can. */
  untrainable(group: TrajectoryGroup, limits: TokenLimits): string | null;
  /** The update these groups make; null when they hold no sampled token (no update, the groups unused). */
  prepare(groups: readonly TrajectoryGroup[]): PreparedUpdate | null;
}
