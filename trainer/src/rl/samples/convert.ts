import { observationStateKey } from '@gauntlet/proto/agent';
import { rolloutSequence, turnPromptIds, type Trajectory, type TrajectoryGroup } from '@gauntlet/proto/rollout';
import {
  computeAdvantages,
  gigpoAdvantages,
  type AdvantageResult,
  type GigpoMetrics,
  type GrpoSample,
  type ScaleRewards,
  type StepCredit,
} from '../../train/grpo/index.js';

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
  /** With step credit (GiGPO): the anchor groups found. */
  anchorMetrics?: GigpoMetrics;
}

/**
 * Samples for one update. Advantages are computed per episode over its group (an episode split
 * into turns gives every turn its episode's advantage), so they are set on every sample. With
 * step credit (GiGPO) each turn also gets its own advantage (see gigpoAdvantages; a turn's anchor
 * state is observationStateKey of the observation it saw), carried per token (tokenAdvantages).
 */
export function groupSamples(
  groups: readonly TrajectoryGroup[],
  scale: ScaleRewards,
  credit?: StepCredit,
): GroupSamples {
  const episodes = groups.flatMap((g) => g.trajectories.map((t) => ({ group: g.group_id, t })));
  const rewards = episodes.map((e) => ({ group: e.group, reward: e.t.reward }));
  const gigpo = credit
    ? gigpoAdvantages(
        episodes.map((e, i) => ({
          ...rewards[i]!,
          turns: e.t.turns.map((turn) => ({ anchor: observationStateKey(turn.observation), reward: turn.reward })),
        })),
        scale,
        credit,
      )
    : null;
  const { advantages, metrics } = gigpo?.episode ?? computeAdvantages(rewards, scale);
  const out: GroupSamples = {
    samples: [],
    skippedEpisodes: 0,
    splitEpisodes: 0,
    rewardMetrics: metrics,
    ...(gigpo ? { anchorMetrics: gigpo.metrics } : {}),
  };
  episodes.forEach(({ group, t }, i) => {
    const whole = trajectorySample(t, group);
    const parts = whole ? [whole] : trajectoryTurnSamples(t, group);
    if (!whole && parts.length) out.splitEpisodes++;
    if (!parts.length) out.skippedEpisodes++;
    const perTurn = gigpo?.turns[i];
    if (!perTurn) for (const s of parts) out.samples.push({ ...s, advantage: advantages[i]! });
    else if (whole)
      out.samples.push({
        ...whole,
        advantage: advantages[i]!,
        tokenAdvantages: turnTokens(t, perTurn, whole.completionIds.length),
      });
    else out.samples.push(...withTurnAdvantages(t, parts, perTurn));
  });
  return out;
}

/** Each turn's advantage on its completion and env tokens, as rolloutSequence lays them out (the sample may stop short). */
function turnTokens(t: Trajectory, perTurn: readonly number[], length: number): number[] {
  const whole = t.turns.flatMap((turn, k) =>
    new Array<number>(turn.completion_ids.length + turn.env_ids.length).fill(perTurn[k]!),
  );
  return whole.slice(0, length);
}

/** Per-turn samples (trajectoryTurnSamples: the turns that sampled a token, in order), each with its turn's advantage. */
function withTurnAdvantages(t: Trajectory, parts: readonly GrpoSample[], perTurn: readonly number[]): GrpoSample[] {
  const sampled = t.turns.flatMap((turn, k) => (turn.completion_ids.length ? [k] : []));
  return parts.map((s, j) => {
    const a = perTurn[sampled[j]!]!;
    return { ...s, advantage: a, tokenAdvantages: s.completionIds.map(() => a) };
  });
}
