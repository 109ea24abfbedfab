import { z } from 'zod';

/** OpenEnv's BrowserGymAction. Unknown fields are rejected. */
export const Action = z
  .object({
    action_str: z.string({ error: "action_str must be a string holding one or more calls such as click('12')" }),
    metadata: z.record(z.string(), z.unknown()).default({}),
  })
  .strict();
export type Action = z.infer<typeof Action>;
