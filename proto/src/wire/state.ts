import { z } from 'zod';

/** Episode state; tolerates extra fields (OpenEnv's State allows extras). */
export const State = z
  .object({
    episode_id: z.string().nullable(),
    step_count: z.number().int().min(0),
    benchmark: z.string(),
    task_name: z.string(),
    task_id: z.string(),
    goal: z.string(),
    current_url: z.string(),
    max_steps: z.number().int().nullable(),
    cum_reward: z.number(),
  })
  .catchall(z.unknown());
export type State = z.infer<typeof State>;
