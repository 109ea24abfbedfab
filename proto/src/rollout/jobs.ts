import { z } from 'zod';
import { ACTION_NAMES } from '../wire/action-names.js';
import { OBSERVATION_FORMATS } from '../wire/observation-format.js';
import { assertValueDepth } from '../wire/depth.js';
import { MAX_POLICY_SERVERS, PolicyServerRef } from './policy-servers.js';
import { PolicyRef, RolloutId } from './trajectory.js';

/**
 * BullMQ queue names (no `:`: BullMQ uses it as its key separator). A `group` job on GROUPS is
 * the parent of its G `episode` jobs on EPISODES; completed groups go to TRAJECTORY_GROUPS, which
 * the trainer consumes.
 */
export const QUEUES = {
  groups: 'gauntlet-groups',
  episodes: 'gauntlet-episodes',
  trajectoryGroups: 'gauntlet-trajectory-groups',
} as const;

export const JOB_NAMES = { group: 'group', episode: 'episode', trajectoryGroup: 'trajectory-group' } as const;

const int = z.number().int();

/**
 * Task options (reset_options) are a few flat fields; a job is data anyone with Redis access can
 * write, so their nesting and size are bounded before anything walks them (a value nested 3000
 * deep overflowed the stack in the env client and was retried as an infra error).
 */
export const MAX_RESET_OPTIONS_DEPTH = 16;
export const MAX_RESET_OPTIONS_CHARS = 65_536;

const ResetOptions = z.record(z.string(), z.unknown()).superRefine((options, ctx) => {
  try {
    assertValueDepth(options, MAX_RESET_OPTIONS_DEPTH);
  } catch {
    ctx.addIssue({ code: 'custom', message: `nests more than ${MAX_RESET_OPTIONS_DEPTH} levels deep` });
    return;
  }
  const chars = JSON.stringify(options).length;
  if (chars > MAX_RESET_OPTIONS_CHARS)
    ctx.addIssue({ code: 'custom', message: `is ${chars} characters as JSON; at most ${MAX_RESET_OPTIONS_CHARS}` });
});

/** Sampling sent with every turn (explicitly: server defaults differ). */
export const SamplingSettings = z
  .object({
    temperature: z.number().min(0).default(1),
    top_p: z.number().gt(0).max(1).default(1),
    top_k: int.min(-1).default(-1),
    max_tokens: int.min(1).max(32_768).default(64),
    /** Base seed: episode i of a group samples with seed + i·SEED_STRIDE + turn. Null: unseeded. */
    seed: int.min(0).nullable().default(null),
  })
  .strict();
export type SamplingSettings = z.infer<typeof SamplingSettings>;

/** How each episode of a job is played. */
export const EpisodeSettings = z
  .object({
    max_turns: int.min(1).max(1_000).default(30),
    /** The whole episode's deadline; past it the episode ends as `timeout`. */
    deadline_ms: int.min(1_000).max(86_400_000).default(600_000),
    sampling: SamplingSettings.default(SamplingSettings.parse({})),
    /** Prompt + reply tokens allowed per turn; older exchanges are trimmed to fit. Null: no budget. */
    context_tokens: int.min(64).nullable().default(null),
    /** Characters allowed per rendered observation (the AXTree is cut first). Null: no budget. */
    observation_chars: int.min(256).nullable().default(null),
    /** How observations are rendered: BrowserGym's AXTree as sent, or pruned to what a policy acts on. */
    observation_format: z.enum(OBSERVATION_FORMATS).default('axtree'),
    /** Constrain replies to the action regex (structured outputs). */
    constrained: z.boolean().default(false),
    /** Constrained replies use only these actions (null: every action). */
    action_names: z.array(z.enum(ACTION_NAMES)).min(1).nullable().default(null),
    /**
     * Constrained replies name only elements the current observation shows (its bids): a small
     * policy's first successes come from choosing among the page's elements, not guessing ids.
     */
    bid_choices: z.boolean().default(false),
    /**
     * Constrained replies type (fill) or pick (select_option) only one of the goal's double-quoted
     * values: a small policy chooses the value instead of spelling it. Free when the goal quotes nothing.
     */
    text_choices: z.boolean().default(false),
    /** Task options passed to reset (e.g. the Gauntlet's start_step). */
    reset_options: ResetOptions.default({}),
    /**
     * The policy servers this job may sample from (the trainer's rotation: servers verified to serve
     * the job's adapter version), by name or index among the worker's own (--policy); never a URL.
     * Absent: any of the worker's own.
     */
    policy_servers: z.array(PolicyServerRef).min(1).max(MAX_POLICY_SERVERS).optional(),
  })
  .strict()
  .refine((s) => s.constrained || (s.action_names === null && !s.bid_choices && !s.text_choices), {
    message: 'action_names, bid_choices and text_choices narrow constrained decoding: set constrained too',
    path: ['constrained'],
  })
  // A reply as long as the whole context leaves no room for a prompt: every turn would fail.
  .refine((s) => s.context_tokens === null || s.sampling.max_tokens < s.context_tokens, {
    message: 'must be below context_tokens (the prompt needs room too)',
    path: ['sampling', 'max_tokens'],
  });
export type EpisodeSettings = z.infer<typeof EpisodeSettings>;

/** A task's name (the env's task ids are short). */
const TaskName = z.string().min(1).max(256);

/** Group ids leave room for the episode suffix within RolloutId's 128 characters. */
export const GroupId = RolloutId.refine((id) => id.length <= 100, 'a group id has at most 100 characters');

/** One GRPO group: G episodes of one task and seed under one policy version. */
export const GroupJob = z
  .object({
    group_id: GroupId,
    task: TaskName,
    seed: int.min(0),
    size: int.min(1).max(256),
    policy: PolicyRef,
    settings: EpisodeSettings,
    submitted_at: z.iso.datetime(),
  })
  .strict();
export type GroupJob = z.infer<typeof GroupJob>;
export type GroupJobInput = z.input<typeof GroupJob>;

/** One episode of a group. Its id (and BullMQ job id) derives from the group's, so resubmitting never duplicates it. */
export const EpisodeJob = z
  .object({
    group_id: GroupId,
    index: int.min(0).max(255),
    episode_id: RolloutId,
    task: TaskName,
    seed: int.min(0),
    policy: PolicyRef,
    settings: EpisodeSettings,
  })
  .strict()
  .refine((job) => job.episode_id === episodeId(job.group_id, job.index), {
    message: 'episode_id must be <group_id>.<index>',
    path: ['episode_id'],
  });
export type EpisodeJob = z.infer<typeof EpisodeJob>;

/** Seeds of sibling episodes are this far apart, so no two turns of a group share a seed. */
export const SEED_STRIDE = 100_003;

export function episodeId(groupId: string, index: number): string {
  return `${groupId}.${index}`;
}

/** The group's G episode jobs, in order: same task, seed, policy and settings; distinct ids and sampling seeds. */
export function episodeJobs(group: GroupJob): EpisodeJob[] {
  return Array.from({ length: group.size }, (_, index) => {
    const base = group.settings.sampling.seed;
    const sampling = { ...group.settings.sampling, seed: base === null ? null : base + index * SEED_STRIDE };
    return {
      group_id: group.group_id,
      index,
      episode_id: episodeId(group.group_id, index),
      task: group.task,
      seed: group.seed,
      policy: group.policy,
      settings: { ...group.settings, sampling },
    };
  });
}
