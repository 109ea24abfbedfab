import { z } from 'zod';
import { parseOrThrow } from './validate.js';

/**
 * The training data files `gauntlet-env collect` writes (and any other recorder may write) and
 * `gauntlet-trainer sft` / `dpo` read: one JSON object per line of `sft.jsonl` / `dpo.jsonl`.
 * The message lists are TRL's conversational form, so TRL reads the files too; the other keys
 * say where each line came from.
 */

/** Roles a recorded message may have. */
export const RECORD_ROLES = ['system', 'user', 'assistant'] as const;

/** One chat message; other keys ride along (TRL's readers keep them too). */
export const RecordMessage = z.looseObject({
  role: z.enum(RECORD_ROLES),
  content: z.string(),
  /** On assistant turns: the env's reward for that action. */
  reward: z.number().optional(),
});
export type RecordMessage = z.infer<typeof RecordMessage>;

const Messages = z.array(RecordMessage).min(1);

/** Where a record comes from: one step of one episode (`episode` names it across files, for resuming). */
const RecordOrigin = z.object({
  id: z.string(),
  episode: z.string(),
  task: z.string(),
  seed: z.number().int(),
  step: z.number().int(),
  /** The step's challenge type (the task's name where a task has one step). */
  type: z.string(),
});

/** One solved step as a conversation: system prompt, then each observation (user) and action (assistant). */
export const SftRecord = RecordOrigin.extend({
  /** The step's reward, summed over its turns. */
  reward: z.number(),
  messages: Messages,
});
export type SftRecord = z.infer<typeof SftRecord>;

/** A preference pair from one state: the good action against one verified to fail there. */
export const DpoRecord = RecordOrigin.extend({
  prompt: Messages,
  chosen: Messages,
  rejected: Messages,
  /** Why the rejected action counts as failed (wrong code, puzzle mistake, action error). */
  rejected_outcome: z.string(),
});
export type DpoRecord = z.infer<typeof DpoRecord>;

/** A line of `sft.jsonl`, checked; a ValidationError names the wrong field. */
export function parseSftRecord(value: unknown, where: (string | number)[] = ['sft']): SftRecord {
  return parseOrThrow(SftRecord, value, where);
}

/** A line of `dpo.jsonl`, checked; a ValidationError names the wrong field. */
export function parseDpoRecord(value: unknown, where: (string | number)[] = ['dpo']): DpoRecord {
  return parseOrThrow(DpoRecord, value, where);
}
