import { rolloutSequence, turnPromptIds, type Trajectory, type TrajectoryGroup } from '@gauntlet/proto/rollout';
import { computeAdvantages, type AdvantageResult, type GrpoSample, type ScaleRewards } from '../../train/grpo/index.js';

/**
 * One episode as one GRPO sample, token-exact: the first prompt's ids, then every turn's sampled
 * ids (envMask 1, the sampler's logprobs) followed by the env's ids (envMask 0, logprob 0). Env
 * ids after the last sampled token train nothing and are left off. Null when the episode sampled
 * no token (a scripted policy) or trimmed its context (see trajectoryTurnSamples).
 */
export function trajectorySample(trajectory: Trajectory, group: string): GrpoSample | null {
  if (trajectory.prompt_ids.length === 0) return null;
  if (trajectory.turns.some((t) => t.trimmed_exchanges > 0)) return null;
  const seq = rolloutSequence(trajectory);
  const last = seq.env_mask.lastIndexOf(1);
  if (last < 0) return null;
  return {
    promptIds: seq.prompt_ids,
    completionIds: seq.completion_ids.slice(0, last + 1),
    samplerLogprobs: seq.logprobs.slice(0, last + 1),
    envMask: seq.env_mask.slice(0, last + 1),
    group,
    reward: trajectory.reward,
  };
}

/**
 * An episode that trimmed its context is no single sequence: each turn becomes a sample of its
 * own, scored against the exact prompt it was sampled from (turnPromptIds).
 */
export function trajectoryTurnSamples(trajectory: Trajectory, group: string): GrpoSample[] {
  return trajectory.turns.flatMap((turn, k) =>
    turn.completion_ids.length === 0
      ? []
      : [
          {
            promptIds: turnPromptIds(trajectory, k),
            completionIds: turn.completion_ids,
            samplerLogprobs: turn.logprobs,
            group,
            reward: trajectory.reward,
          },
        ],
  );
}

/** What a batch of groups gives the learner, and what it had to leave out. */
export interface GroupSamples {
  samples: GrpoSample[];
  /** Episodes that sampled no token (nothing to train). */
  skippedEpisodes: number;
  /** Episodes split into per-turn samples because they trimmed their context. */
  splitEpisodes: number;
  /** Mean reward, its std and the share of groups with equal rewards, over episodes (not samples). */
  rewardMetrics: AdvantageResult['metrics'];
}

/**
 * Samples for one update. Advantages are computed per episode over its group (an episode split
 * into turns gives every turn its episode's advantage), so they are set on every sample.
 */
export function groupSamples(groups: readonly TrajectoryGroup[], scale: ScaleRewards): GroupSamples {
  const episodes = groups.flatMap((g) => g.trajectories.map((t) => ({ group: g.group_id, t })));
  const { advantages, metrics } = computeAdvantages(
    episodes.map((e) => ({ group: e.group, reward: e.t.reward })),
    scale,
  );
  const out: GroupSamples = { samples: [], skippedEpisodes: 0, splitEpisodes: 0, rewardMetrics: metrics };
  episodes.forEach(({ group, t }, i) => {
    const whole = trajectorySample(t, group);
    const parts = whole ? [whole] : trajectoryTurnSamples(t, group);
    if (!whole && parts.length) out.splitEpisodes++;
    if (!parts.length) out.skippedEpisodes++;
    for (const s of parts) out.samples.push({ ...s, advantage: advantages[i]! });
  });
  return out;
}
