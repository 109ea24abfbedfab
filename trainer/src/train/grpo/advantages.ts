import type { ScaleRewards } from './config.js';

/** Added to the std before dividing, as TRL does: a group with equal rewards gets advantage 0, not NaN. */
export const ADVANTAGE_EPSILON = 1e-4;

export interface GroupedReward {
  /** Completions with the same group (prompt, task, seed) are compared with each other. */
  group: string;
  reward: number;
}

export interface AdvantageResult {
  /** One per input, in input order. */
  advantages: number[];
  /** TRL's names: mean reward, mean of the std used per completion, fraction of groups with equal rewards. */
  metrics: { reward: number; reward_std: number; frac_reward_zero_std: number };
}

/**
 * Group-relative advantages A = (r − mean_group) / (σ + 1e-4): σ is the group's std with
 * Bessel's correction (`group`), the whole batch's (`batch`), or no division (`none`). A group of
 * one has σ = 0. Groups may differ in size.
 */
export function computeAdvantages(items: readonly GroupedReward[], scale: ScaleRewards): AdvantageResult {
  if (items.length === 0) throw new RangeError('GRPO advantages: the batch is empty');
  items.forEach((item, i) => {
    if (!Number.isFinite(item.reward))
      throw new RangeError(
        `GRPO advantages: completion ${i} has reward ${item.reward}; rewards must be finite numbers`,
      );
  });
  const groups = new Map<string, number[]>();
  items.forEach((item, i) => {
    const members = groups.get(item.group);
    if (members) members.push(i);
    else groups.set(item.group, [i]);
  });
  const rewards = items.map((item) => item.reward);
  const groupMean = new Array<number>(items.length);
  const groupStd = new Array<number>(items.length);
  let zeroStdGroups = 0;
  for (const members of groups.values()) {
    const values = members.map((i) => rewards[i]!);
    const [mean, std] = [average(values), besselStd(values)];
    if (values.every((v) => v === values[0])) zeroStdGroups++;
    for (const i of members) [groupMean[i], groupStd[i]] = [mean, std];
  }
  const batchStd = besselStd(rewards);
  const stdUsed = scale === 'batch' ? rewards.map(() => batchStd) : groupStd;
  const advantages = rewards.map((r, i) => {
    const centred = r - groupMean[i]!;
    return scale === 'none' ? centred : centred / (stdUsed[i]! + ADVANTAGE_EPSILON);
  });
  return {
    advantages,
    metrics: {
      reward: average(rewards),
      reward_std: average(stdUsed as number[]),
      frac_reward_zero_std: zeroStdGroups / groups.size,
    },
  };
}

/**
 * A completion's reward from weighted parts (TRL's reward functions with `reward_weights`); a
 * part that is missing (null, undefined or NaN: that function had nothing to say) adds nothing.
 */
export function weightedReward(
  parts: Readonly<Record<string, number | null | undefined>>,
  weights: Readonly<Record<string, number>> = {},
): number {
  let total = 0;
  for (const [name, value] of Object.entries(parts)) {
    if (value === null || value === undefined || Number.isNaN(value)) continue;
    total += (weights[name] ?? 1) * value;
  }
  return total;
}

function average(values: readonly number[]): number {
  return values.reduce((a, b) => a + b, 0) / values.length;
}

function besselStd(values: readonly number[]): number {
  if (values.length < 2) return 0;
  const mean = average(values);
  return Math.sqrt(values.reduce((a, v) => a + (v - mean) ** 2, 0) / (values.length - 1));
}
