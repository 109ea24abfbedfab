import { z } from 'zod';
import { StepResult } from './observation.js';

/**
 * The next action a person took in a recording session (reset with `browser.record`). The
 * server answers once one is there or `wait_s` passed (then `step` is null), so a client polls.
 */
export const RecordRequest = z
  .object({
    wait_s: z.number().positive().max(60).optional(),
    session_id: z.string().optional(),
  })
  .strict();
export type RecordRequest = z.infer<typeof RecordRequest>;

/** One recorded action: the observation it was taken on, and what it led to. */
export const RecordedStep = z.object({
  /** 0 for the first action of the episode. */
  index: z.number().int().min(0),
  /** A BrowserGym action string, e.g. `click('12')`, `fill('15', 'Bob')`. */
  action: z.string(),
  /** The page before the action, as the reset or step that showed it (observation, metadata). */
  before: StepResult,
  reward: z.number(),
  done: z.boolean(),
  /** Seconds since the episode's reset when the person acted. */
  wall_time_s: z.number(),
});
export type RecordedStep = z.infer<typeof RecordedStep>;

export const RecordReply = z.object({
  step: RecordedStep.nullable(),
  /** False once the episode is over and every recorded step has been handed out. */
  recording: z.boolean(),
});
export type RecordReply = z.infer<typeof RecordReply>;
