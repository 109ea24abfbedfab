import { z } from 'zod';
import { Action } from './action.js';
import { ObservationOptions } from './observation.js';

export const BrowserOptions = z.object({ headed: z.boolean().optional(), record: z.boolean().optional() }).strict();
export type BrowserOptions = z.infer<typeof BrowserOptions>;

/**
 * Reset arguments. OpenEnv drops unknown keys silently, so extras are stripped, not rejected.
 * Gauntlet extensions: `observation` (parts to compute), `options` (task-specific, e.g. start_step).
 */
export const ResetRequest = z
  .object({
    seed: z.number().int().min(0).optional(),
    episode_id: z.string().max(255).optional(),
    task_name: z.string().min(1).optional(),
    observation: ObservationOptions.partial().optional(),
    options: z.record(z.string(), z.unknown()).optional(),
    /** Which actions the agent may use and how they are parsed (BrowserGym's HighLevelActionSet). */
    action_set: z
      .object({
        subsets: z.array(z.string()).min(1).optional(),
        strict: z.boolean().optional(),
        multi_action: z.boolean().optional(),
      })
      .strict()
      .optional(),
    /**
     * Where the episode's browser runs. `headed`: a visible window (the server needs a display and
     * `serve --allow-headed`); `record`: a person acts in that window and the server turns their
     * trusted input into actions, fetched with a record request (implies `headed`).
     */
    browser: BrowserOptions.optional(),
    /** Stateful HTTP sessions: which session to reset (omit for the default HTTP session). */
    session_id: z.string().optional(),
  })
  .strip();
export type ResetRequest = z.infer<typeof ResetRequest>;

export const StepRequest = z
  .object({
    action: Action,
    timeout_s: z.number().positive().max(600).optional(),
    request_id: z.string().optional(),
    session_id: z.string().optional(),
  })
  .strict();
export type StepRequest = z.infer<typeof StepRequest>;
