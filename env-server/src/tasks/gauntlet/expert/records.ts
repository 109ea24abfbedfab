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

/** A preference pair from one state: the expert's action against one verified to fail there. */
export interface DpoRecord extends StepOrigin {
  prompt: ChatMessage[];
  chosen: ChatMessage[];
  rejected: ChatMessage[];
  /** Why the rejected action counts as failed (wrong code, puzzle mistake, action error). */
  rejected_outcome: string;
}

export const episodeKey = (task: string, seed: number) => `${task}#${seed}`;

/**
 * The episode's solved steps, each as one conversation: system prompt, then per turn the
 * observation (user) and the expert's action (assistant, with its reward). Unsolved steps are
 * left out: they are not expert demonstrations.
 */
export function sftRecords(episode: Trajectory): SftRecord[] {
  return attempts(episode)
    .filter((a) => a.turns.some((t) => t.reward > 0))
    .map((a, i) => ({
      id: `${episodeKey(episode.task, episode.seed)}/step${a.step}.${i}`,
      episode: episodeKey(episode.task, episode.seed),
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
