import type { Trajectory } from './trajectory.js';

/** TRL's rollout_func view of an episode: one sequence, env tokens masked out with logprob 0. */
export interface RolloutSequence {
  prompt_ids: number[];
  completion_ids: number[];
  logprobs: number[];
  env_mask: number[];
}

/**
 * The exact prompt ids turn `k` was sampled from, rebuilt from a trajectory: the first prompt,
 * then the exchanges (completion + env ids) of turns trimmed_exchanges … k-1. What a trainer
 * scores the turn's completion against.
 */
export function turnPromptIds(trajectory: Trajectory, k: number): number[] {
  const turn = trajectory.turns[k];
  if (!turn)
    throw new RangeError(`trajectory ${trajectory.episode_id} has no turn ${k} (it has ${trajectory.turns.length})`);
  const ids = [...trajectory.prompt_ids];
  for (const earlier of trajectory.turns.slice(turn.trimmed_exchanges, k))
    ids.push(...earlier.completion_ids, ...earlier.env_ids);
  return ids;
}

/** An untrimmed trajectory as one sequence (TRL's rollout_func shape): env tokens carry env_mask 0 and logprob 0. */
export function rolloutSequence(trajectory: Trajectory): RolloutSequence {
  const trimmed = trajectory.turns.find((t) => t.trimmed_exchanges > 0);
  if (trimmed)
    throw new Error(
      `trajectory ${trajectory.episode_id} trimmed its context at turn ${trimmed.index}; it is not one sequence (use turnPromptIds per turn)`,
    );
  const out: RolloutSequence = {
    prompt_ids: [...trajectory.prompt_ids],
    completion_ids: [],
    logprobs: [],
    env_mask: [],
  };
  for (const turn of trajectory.turns) {
    turn.completion_ids.forEach(
      (id, i) => (out.completion_ids.push(id), out.logprobs.push(turn.logprobs[i]!), out.env_mask.push(1)),
    );
    turn.env_ids.forEach((id) => (out.completion_ids.push(id), out.logprobs.push(0), out.env_mask.push(0)));
  }
  return out;
}
