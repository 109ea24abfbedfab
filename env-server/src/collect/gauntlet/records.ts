import type { SftRecord } from '@gauntlet/proto';
import { GAUNTLET_SYSTEM_PROMPT } from '@gauntlet/proto/agent';
import type { Trajectory } from '@gauntlet/proto/rollout';
import { conversation, episodeKey } from '../records.js';
import { attempts } from './metrics.js';

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
      messages: conversation(GAUNTLET_SYSTEM_PROMPT, a.turns),
    }));
}
