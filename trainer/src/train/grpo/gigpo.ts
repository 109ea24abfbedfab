import { computeAdvantages, type AdvantageResult } from './advantages.js';
import type { ScaleRewards } from './config.js';

/** One turn as GiGPO sees it: the state it started from (an anchor key) and the reward it earned. */
export interface AnchoredTurn {
  anchor: string;
  reward: number;
}

/** One episode of a group, with its turns in order. */
export interface AnchoredEpisode {
  group: string;
  reward: number;
  turns: readonly AnchoredTurn[];
}

export interface StepCredit {
  /** Weight of the step-level advantage added to the episode's. */
  stepWeight: number;
  /** Discount of the returns turns are compared by. */
  gamma: number;
}

export interface GigpoMetrics {
  /** Anchor groups with two turns or more (only those compare anything). */
  'gigpo/anchor_groups': number;
  /** Their mean size in turns (0 when there is none). */
  'gigpo/anchor_group_size': number;
  /** Share of all turns that are in one of them. */
  'gigpo/anchored_turns': number;
}

export interface GigpoResult {
  /** The episode-level (GRPO) advantages and reward metrics, as computeAdvantages gives them. */
  episode: AdvantageResult;
  /** Per episode, per turn: the step-level advantage (0 for a turn alone in its anchor group). */
  step: number[][];
  /** Per episode, per turn: episode advantage + stepWeight × step advantage. */
  turns: number[][];
  metrics: GigpoMetrics;
}

/** R_t = r_t + γ·R_{t+1}: each turn's discounted return from that turn to the end of its episode. */
export function discountedReturns(rewards: readonly number[], gamma: number): number[] {
  const out = new Array<number>(rewards.length);
  let next = 0;
  for (let t = rewards.length - 1; t >= 0; t--) out[t] = next = rewards[t]! + gamma * next;
  return out;
}

/**
 * GiGPO (arXiv 2505.10978): the episode advantage of GRPO, plus a step-level one. Turns of one
 * group's episodes that start from the same anchor state (the same key, at any turn index, a
 * repeat within one episode included) form a step group; a turn's step advantage is its
 * discounted return compared within that group the way episode rewards are compared within
 * theirs (mean-centred; divided by σ + 1e-4 per `scale`, σ the step group's, or with `batch` the
 * std of every turn's return). A turn alone in its anchor group gets 0.
 */
export function gigpoAdvantages(
  episodes: readonly AnchoredEpisode[],
  scale: ScaleRewards,
  credit: StepCredit,
): GigpoResult {
  const episode = computeAdvantages(episodes, scale);
  const flat = episodes.flatMap((e) => {
    const returns = discountedReturns(
      e.turns.map((t) => t.reward),
      credit.gamma,
    );
    // Groups and anchors are joined with a separator neither can hold, so no two pairs collide.
    return e.turns.map((t, k) => ({ group: `${e.group}\u0000${t.anchor}`, reward: returns[k]! }));
  });
  const flatStep = flat.length ? computeAdvantages(flat, scale).advantages : [];
  let at = 0;
  const step = episodes.map((e) => e.turns.map(() => flatStep[at++]!));
  const turns = step.map((row, i) => row.map((a) => episode.advantages[i]! + credit.stepWeight * a));
  return { episode, step, turns, metrics: anchorMetrics(flat.map((f) => f.group)) };
}

function anchorMetrics(keys: readonly string[]): GigpoMetrics {
  const sizes = new Map<string, number>();
  for (const key of keys) sizes.set(key, (sizes.get(key) ?? 0) + 1);
  const shared = [...sizes.values()].filter((n) => n > 1);
  const anchored = shared.reduce((a, n) => a + n, 0);
  return {
    'gigpo/anchor_groups': shared.length,
    'gigpo/anchor_group_size': shared.length ? anchored / shared.length : 0,
    'gigpo/anchored_turns': keys.length ? anchored / keys.length : 0,
  };
}
