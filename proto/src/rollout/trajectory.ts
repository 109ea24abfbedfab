import { z } from 'zod';
import { EpisodeOutcome } from './outcome.js';

const int = z.number().int();
const count = int.min(0);
const tokenIds = z.array(count);
const ms = z.number().min(0);

/** Letters, digits, `_`, `-`, `.`: safe inside Redis keys and BullMQ job ids (which must not contain `:`). */
export const RolloutId = z
  .string()
  .regex(
    /^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$/,
    'must be 1-128 letters, digits, "_", "-" or "." (starting with a letter or digit)',
  );

/** The policy that produced a turn: the model the server reported, and the adapter and its version. */
export const PolicyRef = z
  .object({
    model: z.string().min(1),
    /** LoRA adapter name; null = the base model (or a scripted policy). */
    adapter: z.string().min(1).nullable(),
    /** Training step of the adapter's weights; null when not versioned. */
    version: count.nullable(),
  })
  .strict();
export type PolicyRef = z.infer<typeof PolicyRef>;

/**
 * One decision: the observation the policy saw, the tokens it sampled (with the sampler's
 * logprobs), the action parsed from them, what the env answered, and the env's tokens that
 * follow in the prompt (env_mask = 0, logprob 0). A scripted policy has no tokens: its id lists
 * are empty.
 */
export const TrajectoryTurn = z
  .object({
    index: count,
    /** The user message the policy saw this turn (rendered observation). */
    observation: z.string(),
    /** Oldest exchanges left out of this turn's prompt to fit the context budget (0: none). */
    trimmed_exchanges: count,
    completion_ids: tokenIds,
    /** The sampler's logprob of each completion token. */
    logprobs: z.array(z.number()),
    /** Tokens after the completion, up to the next reply: turn close + next observation + generation prompt. */
    env_ids: tokenIds,
    /** The policy's raw text and the action sent to the env (noop() when nothing parsed). */
    action_text: z.string(),
    action: z.string(),
    /** The parser found no action and sent noop() instead. */
    action_fallback: z.boolean(),
    reward: z.number(),
    done: z.boolean(),
    /** The env's last_action_error after this action ('' when it ran cleanly). */
    error: z.string(),
    policy: PolicyRef,
    /** Task facts on screen when the action was chosen (e.g. the Gauntlet's step and type). */
    task_info: z.record(z.string(), z.unknown()),
    policy_ms: ms,
    /** Env time as the server measured it (action, validation, observation). */
    env_ms: ms,
    /** The step call's time as this client saw it. */
    step_ms: ms,
  })
  .strict()
  .refine((t) => t.logprobs.length === t.completion_ids.length, {
    message: 'logprobs must have one entry per completion token',
    path: ['logprobs'],
  });
export type TrajectoryTurn = z.infer<typeof TrajectoryTurn>;

/** A whole episode: its identity, the first prompt's tokens, every turn, and how it ended. */
export const Trajectory = z
  .object({
    episode_id: RolloutId,
    /** The group it belongs to (null outside a GRPO group, e.g. evaluation or oracle data). */
    group_id: RolloutId.nullable(),
    task: z.string().min(1),
    seed: count,
    /** Turn 0's prompt (system + first observation + generation prompt); empty for scripted policies. */
    prompt_ids: tokenIds,
    turns: z.array(TrajectoryTurn),
    outcome: EpisodeOutcome,
    /** Sum of the turns' rewards. */
    reward: z.number(),
    /** What stopped it early (infra_error, timeout, a policy that gave up); null otherwise. */
    error: z.object({ name: z.string(), message: z.string() }).strict().nullable(),
    /** Task facts after the last step (e.g. the Gauntlet's steps solved). */
    final_task_info: z.record(z.string(), z.unknown()),
    started_at: z.iso.datetime(),
    wall_ms: ms,
  })
  .strict();
export type Trajectory = z.infer<typeof Trajectory>;

/**
 * G episodes of one task and seed under one policy version: a GRPO group. Never padded: a
 * group whose episodes cannot all be collected is dropped whole, so it has no infra_error turns.
 */
export const TrajectoryGroup = z
  .object({
    group_id: RolloutId,
    task: z.string().min(1),
    seed: count,
    /** The policy the group was asked for (each turn records the one that actually answered). */
    policy: PolicyRef,
    trajectories: z.array(Trajectory).min(1),
    completed_at: z.iso.datetime(),
  })
  .strict()
  .superRefine((group, ctx) => {
    group.trajectories.forEach((t, i) => {
      if (t.group_id !== group.group_id || t.task !== group.task || t.seed !== group.seed) {
        ctx.addIssue({
          code: 'custom',
          path: ['trajectories', i],
          message: `episode ${t.episode_id} is not of this group (${group.group_id}: ${group.task} seed ${group.seed})`,
        });
      }
      if (t.outcome === 'infra_error')
        ctx.addIssue({
          code: 'custom',
          path: ['trajectories', i, 'outcome'],
          message: 'a group never carries an infra_error episode (retry it or drop the group)',
        });
    });
  });
export type TrajectoryGroup = z.infer<typeof TrajectoryGroup>;
