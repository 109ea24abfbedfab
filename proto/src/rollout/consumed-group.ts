import { z } from 'zod';
import { TrajectoryGroup } from './trajectory.js';

/**
 * A group as the trainer took it off the queue, with what only the trainer knows then: its own
 * policy version (so each turn's staleness is `trainer_version - turn.policy.version`), whether
 * it admitted the group, and the text of each token id. `gauntlet-trainer grpo
 * --keep-trajectories N` writes the last N as JSON lines; `gauntlet-agent view` reads them.
 */
export const ConsumedGroup = z
  .object({
    /** The trainer's version (updates applied) when it consumed the group. */
    trainer_version: z.number().int().min(0),
    consumed_at: z.iso.datetime(),
    /** admitted: queued for an update; stale: more versions behind than allowed; foreign: not this run's policy. */
    admission: z.enum(['admitted', 'stale', 'foreign']),
    /** Each token id of the group (as a decimal string) and its text alone; absent: ids only. */
    token_texts: z.record(z.string().regex(/^\d+$/), z.string()).optional(),
    group: TrajectoryGroup,
  })
  .strict();
export type ConsumedGroup = z.infer<typeof ConsumedGroup>;

/** Where `grpo --keep-trajectories` writes in its output folder. */
export const KEPT_TRAJECTORIES_FILE = 'trajectories.jsonl';
