import type { Trajectory, TrajectoryGroup } from '@gauntlet/proto/rollout';
import { MICRO_BATCH_TOKENS } from '../../train/micro-batches.js';
import { validateSample, type GrpoConfig } from '../../train/grpo/index.js';
import { trajectorySample, trajectoryTurnSamples } from '../samples/convert.js';

/** What the learner's model can take: the limits a group from the network is checked against. */
export interface TokenLimits {
  vocabSize: number;
  /** Longest training sequence (prompt + completion) one pass may hold. */
  maxSequenceTokens: number;
}

/**
 * A sampled token was drawn, so its log-prob is far above this (e^-10000 is never drawn); below
 * it, float32 turns the value into -Infinity and the importance weights into NaN.
 */
export const MIN_LOGPROB = -1e4;
/** Log-probs are ≤ 0; the slack absorbs rounding in a sampler's log-softmax. */
export const LOGPROB_SLACK = 1e-3;
/** Rewards are sums of an env's per-step rewards; beyond this the group advantages overflow. */
export const MAX_ABS_REWARD = 1e6;

/** The default: the model's context, within the token budget of one micro-batch pass. */
export function defaultTokenLimits(model: { vocabSize: number; maxPositionEmbeddings: number }): TokenLimits {
  return {
    vocabSize: model.vocabSize,
    maxSequenceTokens: Math.min(model.maxPositionEmbeddings, MICRO_BATCH_TOKENS),
  };
}

/**
 * Why a group that passed the TrajectoryGroup schema still cannot be trained on, or null when it
 * can: a token id outside the vocabulary, a training sequence longer than the limit, a log-prob
 * or reward no sampler or env gives, or a sample grpoStep would refuse. Lengths are checked
 * before any sequence is built, so a 200k-token prompt costs a sum, not an allocation.
 */
export function untrainableReason(group: TrajectoryGroup, limits: TokenLimits, config: GrpoConfig): string | null {
  for (const t of group.trajectories) {
    const problem = episodeProblem(t, limits, config);
    if (problem) return `group ${group.group_id} episode ${t.episode_id}: ${problem}`;
  }
  return null;
}

function episodeProblem(t: Trajectory, limits: TokenLimits, config: GrpoConfig): string | null {
  if (!(Math.abs(t.reward) <= MAX_ABS_REWARD)) return `reward ${t.reward} is outside ±${MAX_ABS_REWARD}`;
  const ids: [string, readonly number[]][] = [['prompt_ids', t.prompt_ids]];
  t.turns.forEach((turn, k) =>
    ids.push([`turns.${k}.completion_ids`, turn.completion_ids], [`turns.${k}.env_ids`, turn.env_ids]),
  );
  for (const [where, list] of ids) {
    const bad = list.findIndex((id) => !Number.isInteger(id) || id < 0 || id >= limits.vocabSize);
    if (bad >= 0) return `${where}[${bad}] is ${list[bad]}, outside the vocabulary [0, ${limits.vocabSize})`;
  }
  for (const [k, turn] of t.turns.entries()) {
    const bad = turn.logprobs.findIndex((lp) => !(lp >= MIN_LOGPROB && lp <= LOGPROB_SLACK));
    if (bad >= 0) return `turns.${k}.logprobs[${bad}] is ${turn.logprobs[bad]}, not a log-prob a sampler gives`;
  }
  const longest = longestSample(t);
  if (longest > limits.maxSequenceTokens)
    return `a training sequence of ${longest} tokens is longer than the limit of ${limits.maxSequenceTokens}`;
  // Short enough to build now: what grpoStep checks is checked here, before the engine.
  const whole = trajectorySample(t, 'check');
  const samples = whole ? [whole] : trajectoryTurnSamples(t, 'check');
  // Advantages (per token with gigpo) are the trainer's own, set after admission: not checked here.
  const unadvantaged = { ...config, advantage: 'grpo' as const };
  try {
    samples.forEach((s, i) => validateSample(s, i, unadvantaged));
  } catch (error) {
    return (error as Error).message;
  }
  return null;
}

/**
 * Tokens of the longest sample the episode becomes (see samples/convert.ts): the whole episode up
 * to its last sampled token, or, when it trimmed its context, each turn's own prompt + completion.
 */
function longestSample(t: Trajectory): number {
  const prompt = t.prompt_ids.length;
  if (!t.turns.some((turn) => turn.trimmed_exchanges > 0)) {
    let total = prompt;
    let trained = prompt;
    for (const turn of t.turns) {
      total += turn.completion_ids.length;
      if (turn.completion_ids.length > 0) trained = total;
      total += turn.env_ids.length;
    }
    return trained;
  }
  // before[k]: tokens of the exchanges (completion + env) of turns 0 … k-1.
  const before = [0];
  for (const turn of t.turns) before.push(before.at(-1)! + turn.completion_ids.length + turn.env_ids.length);
  let longest = 0;
  t.turns.forEach((turn, k) => {
    if (turn.completion_ids.length === 0) return;
    const from = Math.min(turn.trimmed_exchanges, k);
    longest = Math.max(longest, prompt + before[k]! - before[from]! + turn.completion_ids.length);
  });
  return longest;
}
