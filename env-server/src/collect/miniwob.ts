import type { ObservationFormat, SftRecord } from '@gauntlet/proto';
import { runEpisode, systemPromptFor, type EpisodeEnv } from '@gauntlet/proto/agent';
import type { Trajectory } from '@gauntlet/proto/rollout';
import { oraclePolicy } from '../tasks/oracle-helpers/oracle-policy.js';
import type { TaskDefinition } from '../tasks/task.js';
import { conversation, episodeKey } from './records.js';

/**
 * Plays one episode of a built-in MiniWoB task with its oracle through the same runEpisode a
 * rollout worker uses: the system prompt for the task, each observation rendered as the user
 * turn (in `format`), the oracle's action text as the reply.
 */
export function runMiniwobOracleEpisode(
  env: EpisodeEnv,
  definition: TaskDefinition,
  task: string,
  seed: number,
  format: ObservationFormat = 'axtree',
): Promise<Trajectory> {
  return runEpisode(env, oraclePolicy(definition), { task, seed, deadlineMs: 120_000, render: { format } });
}

/** A solved episode as one SFT conversation; an unsolved one is no demonstration and gives none. */
export function oracleSftRecords(episode: Trajectory): SftRecord[] {
  if (episode.outcome !== 'success') return [];
  const key = episodeKey(episode.task, episode.seed);
  return [
    {
      id: `${key}/step1.0`,
      episode: key,
      task: episode.task,
      seed: episode.seed,
      step: 1,
      type: episode.task,
      reward: episode.reward,
      messages: conversation(systemPromptFor(episode.task), episode.turns),
    },
  ];
}
