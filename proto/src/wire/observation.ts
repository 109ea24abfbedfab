import { z } from 'zod';

/** Which observation parts a session computes; each can be switched off for speed. */
export const ObservationOptions = z
  .object({
    axtree: z.boolean().default(true),
    pruned_html: z.boolean().default(true),
    extra_properties: z.boolean().default(true),
    /** `rgb` = OpenEnv's int[H][W][3]; `png`/`jpeg` = compact base64 in metadata.screenshot_encoded. */
    screenshot: z.enum(['none', 'rgb', 'png', 'jpeg']).default('none'),
    /**
     * The task's oracle reads this same observation and its next action rides in
     * metadata.browsergym_info.oracle_action (null when the task has no oracle, it cannot tell,
     * or the episode is over): an agent's oracle or hybrid mode plays it without importing the env.
     */
    oracle_action: z.boolean().default(false),
  })
  .strict();
export type ObservationOptions = z.infer<typeof ObservationOptions>;

export const ElementProperties = z.object({
  visibility: z.number(),
  bbox: z.tuple([z.number(), z.number(), z.number(), z.number()]).nullable(),
  clickable: z.boolean(),
  set_of_marks: z.boolean(),
});
export type ElementProperties = z.infer<typeof ElementProperties>;

/** One message of the page's BrowserGym chat, as an observation carries it (a model prompt's message is PromptMessage). */
export const ChatMessage = z.object({ role: z.string(), timestamp: z.number(), message: z.string() });
export type ChatMessage = z.infer<typeof ChatMessage>;

export const BrowserGymObs = z.object({
  chat_messages: z.array(ChatMessage),
  goal: z.string(),
  goal_object: z.array(z.object({ type: z.literal('text'), text: z.string() })),
  open_pages_urls: z.array(z.string()),
  open_pages_titles: z.array(z.string()),
  active_page_index: z.number().int(),
  url: z.string(),
  extra_element_properties: z.record(z.string(), ElementProperties),
  focused_element_bid: z.string(),
  last_action: z.string(),
  last_action_error: z.string(),
  elapsed_time: z.number(),
});
export type BrowserGymObs = z.infer<typeof BrowserGymObs>;

export const EncodedScreenshot = z.object({
  format: z.enum(['png', 'jpeg']),
  width: z.number().int(),
  height: z.number().int(),
  base64: z.string(),
});
export type EncodedScreenshot = z.infer<typeof EncodedScreenshot>;

export const ObservationMetadata = z
  .object({
    browsergym_obs: BrowserGymObs,
    /** Timings in milliseconds for each part of the step, plus task info. */
    browsergym_info: z.record(z.string(), z.unknown()),
    screenshot_encoded: EncodedScreenshot.optional(),
  })
  .catchall(z.unknown());
export type ObservationMetadata = z.infer<typeof ObservationMetadata>;

/** OpenEnv's BrowserGymObservation: every string is a string (never null). */
export const Observation = z
  .object({
    text: z.string(),
    url: z.string(),
    goal: z.string(),
    axtree_txt: z.string(),
    pruned_html: z.string(),
    error: z.string(),
    last_action_error: z.boolean(),
    screenshot: z.array(z.array(z.array(z.number().int()))).nullable(),
    done: z.boolean(),
    reward: z.number().nullable(),
    metadata: ObservationMetadata,
  })
  .strict();
export type Observation = z.infer<typeof Observation>;

/** The payload of an observation frame / the reply of POST /reset and /step. */
export const StepResult = z.object({
  observation: Observation,
  reward: z.number().nullable(),
  done: z.boolean(),
  metadata: ObservationMetadata,
});
export type StepResult = z.infer<typeof StepResult>;
