import { z } from 'zod';

/**
 * An open-web episode: the env's `web` task starts on any page the operator allows
 * (`--allow-origin`) and plays a free-text goal. These are its reset `options`, declared here so
 * the env validates them and an agent builds them from one definition.
 */
export const WEB_TASK = 'web';

/** Goal-spec regexes come from the wire: short enough to read, and matched under a time budget by the env. */
export const MAX_GOAL_REGEX_CHARS = 500;
export const MAX_WEB_URL_CHARS = 2048;
export const MAX_WEB_GOAL_CHARS = 4000;
export const MAX_WEB_STEPS = 1000;

/** A JavaScript regular expression source (no flags), searched anywhere in its subject. */
const GoalRegex = z
  .string()
  .min(1)
  .max(MAX_GOAL_REGEX_CHARS)
  .superRefine((source, ctx) => {
    try {
      new RegExp(source);
    } catch (error) {
      ctx.addIssue({ code: 'custom', message: `not a valid regular expression: ${(error as Error).message}` });
    }
  });

export const WebTaskOptions = z
  .object({
    /** The start page: an absolute http(s) URL on an origin the env allows. */
    url: z
      .string()
      .max(MAX_WEB_URL_CHARS)
      .refine((url) => URL.canParse(url) && /^https?:$/.test(new URL(url).protocol), {
        message: 'must be an absolute http:// or https:// URL',
      }),
    /** What the agent is asked to do, in plain words. */
    goal: z.string().trim().min(1).max(MAX_WEB_GOAL_CHARS),
    /** Success needs the final page's URL to match. */
    success_url: GoalRegex.optional(),
    /** Success needs the final page's text (its body's innerText) to match. */
    success_text: GoalRegex.optional(),
    /** Success needs the agent's send_msg_to_user message to match. */
    answer: GoalRegex.optional(),
    /** Steps before the episode is truncated (default: the task's max_steps). */
    max_steps: z.number().int().min(1).max(MAX_WEB_STEPS).optional(),
  })
  .strict();
export type WebTaskOptions = z.infer<typeof WebTaskOptions>;

/** The keys of the goal spec; an episode reset with none of them is `unjudged`. */
export const GOAL_SPEC_KEYS = ['success_url', 'success_text', 'answer'] as const;
