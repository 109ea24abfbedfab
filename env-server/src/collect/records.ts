import type { RecordMessage } from '@gauntlet/proto';
import type { TrajectoryTurn } from '@gauntlet/proto/rollout';

/**
 * Names one episode of a collection. Full runs started later (`start_step` > 1) are different
 * episodes from the same seed started at step 1, so the start step is part of the key.
 */
export const episodeKey = (task: string, seed: number, startStep = 1) =>
  `${task}#${seed}${startStep > 1 ? `@step${startStep}` : ''}`;

/**
 * A played stretch as an SFT conversation: the system prompt, then per turn the observation
 * (user) and the action played (assistant, with the env's reward for it), as a rollout worker
 * renders them, so SFT data and rollouts read (and tokenise) the same.
 */
export function conversation(
  systemPrompt: string,
  turns: readonly Pick<TrajectoryTurn, 'observation' | 'action_text' | 'reward'>[],
): RecordMessage[] {
  return [
    { role: 'system', content: systemPrompt },
    ...turns.flatMap((t): RecordMessage[] => [
      { role: 'user', content: t.observation },
      { role: 'assistant', content: t.action_text, reward: t.reward },
    ]),
  ];
}
