import { systemPromptFor } from '@gauntlet/proto/agent';
import { turnPromptIds, type Trajectory, type TrajectoryGroup } from '@gauntlet/proto/rollout';
import type { TemplateMessage } from '../../model/chat-template.js';
import type { SampledState } from '../../train/sdft/step.js';
import { teacherMessages } from '../../train/sdft/teacher-prompt.js';

export interface DistillPairOptions {
  /** A conversation as prompt ids through the model's chat template, with the generation prompt. */
  encode(messages: TemplateMessage[]): number[];
  /** The demonstration as the teacher template's {demonstration}. */
  demonstration: string;
  template: string;
  /** Longest teacher prompt plus completion; a longer turn is left out (counted). */
  maxLength: number;
}

export interface DistillPairs {
  pairs: SampledState[];
  /** Turns that sampled no token (a scripted policy): nothing to distil. */
  unsampled: number;
  /** Turns left out because the teacher prompt and the completion exceed maxLength. */
  tooLong: number;
}

/**
 * The conversation turn `k` of an episode was sampled from, as messages: the worker's system
 * prompt for the task (systemPromptFor, as runEpisode uses), the first observation, then the
 * exchanges it kept (each reply's text and the observation after it) — the oldest
 * trimmed_exchanges left out as TokenHistory left them out.
 */
export function turnMessages(t: Trajectory, k: number): TemplateMessage[] {
  const turns = t.turns;
  const from = Math.min(turns[k]!.trimmed_exchanges, k);
  const messages: TemplateMessage[] = [
    { role: 'system', content: systemPromptFor(t.task) },
    { role: 'user', content: turns[0]!.observation },
  ];
  for (let j = from; j < k; j++)
    messages.push(
      { role: 'assistant', content: turns[j]!.action_text },
      { role: 'user', content: turns[j + 1]!.observation },
    );
  return messages;
}

/**
 * Every sampled turn of the groups as an SDFT pair: the student side token-exact from the
 * trajectory (the ids the turn was sampled from, turnPromptIds, and its completion ids); the
 * teacher's prompt the same turn re-rendered through the chat template with the demonstration
 * written into its user message (teacherMessages).
 */
export function distillPairs(groups: readonly TrajectoryGroup[], o: DistillPairOptions): DistillPairs {
  const out: DistillPairs = { pairs: [], unsampled: 0, tooLong: 0 };
  for (const t of groups.flatMap((g) => g.trajectories))
    t.turns.forEach((turn, k) => {
      if (turn.completion_ids.length === 0) {
        out.unsampled++;
        return;
      }
      const teacher = o.encode(teacherMessages(turnMessages(t, k), o.demonstration, o.template));
      if (teacher.length + turn.completion_ids.length > o.maxLength) {
        out.tooLong++;
        return;
      }
      out.pairs.push({ student: turnPromptIds(t, k), teacher, completion: [...turn.completion_ids] });
    });
  return out;
}
