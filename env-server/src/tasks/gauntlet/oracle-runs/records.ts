import { GAUNTLET_SYSTEM_PROMPT } from '@gauntlet/proto/agent';
import type { Trajectory } from '@gauntlet/proto/rollout';
import { attempts } from './metrics.js';

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
  /** On assistant turns: the env's reward for that action. */
  reward?: number;
}

/** Where a record comes from: one step of one episode. */
interface StepOrigin {
  id: string;
  episode: string;
  task: string;
  seed: number;
  step: number;
  type: string;
}

/** One solved gauntlet step as an SFT conversation (TRL / our trainer read `messages`; other keys ride along). */
export interface SftRecord extends StepOrigin {
  reward: number;
  messages: ChatMessage[];
}

/** A preference pair from one state: the oracle's action against one verified to fail there. */
export interface DpoRecord extends StepOrigin {
  prompt: ChatMessage[];
  chosen: ChatMessage[];
  rejected: ChatMessage[];
  /** Why the rejected action counts as failed (wrong code, puzzle mistake, action error). */
  rejected_outcome: string;
}

/**
 * Names one episode of a collection. Full runs started later (`start_step` > 1) are different
 * episodes from the same seed started at step 1, so the start step is part of the key.
 */
export const episodeKey = (task: string, seed: number, startStep = 1) =>
  `${task}#${seed}${startStep > 1 ? `@step${startStep}` : ''}`;

/**
 * The episode's solved steps, each as one conversation: system prompt, then per turn the
 * observation (user) and the oracle's action (assistant, with its reward). Unsolved steps are
 * left out: they are not oracle demonstrations.
 */
export function sftRecords(episode: Trajectory, startStep = 1): SftRecord[] {
  const key = episodeKey(episode.task, episode.seed, startStep);
  return attempts(episode)
    .filter((a) => a.turns.some((t) => t.reward > 0))
    .map((a, i) => ({
      id: `${key}/step${a.step}.${i}`,
      episode: key,
      task: episode.task,
      seed: episode.seed,
      step: a.step,
      type: a.type,
      reward: a.turns.reduce((sum, t) => sum + t.reward, 0),
      messages: [
        { role: 'system', content: GAUNTLET_SYSTEM_PROMPT },
        ...a.turns.flatMap((t): ChatMessage[] => [
          { role: 'user', content: t.observation },
          { role: 'assistant', content: t.action_text, reward: t.reward },
        ]),
      ],
    }));
}
