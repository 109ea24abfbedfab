import { randomUUID } from 'node:crypto';
import type { CallOptions, EnvClient, ResetInput } from '../client/types.js';
import { Deadline } from '../deadline/deadline.js';
import {
  EpisodeTimeoutError,
  isUnjudged,
  isUnrecoverable,
  outcomeFromError,
  type EpisodeOutcome,
} from '../rollout/outcome.js';
import type { Trajectory, TrajectoryTurn } from '../rollout/trajectory.js';
import type { StepResult } from '../wire/observation.js';
import { parseAction, type ParsedAction } from './parse-action.js';
import type { EpisodePolicy, PolicyReply } from './policy.js';
import { renderObservation, type RenderOptions } from './render.js';
import { systemPromptFor } from './system-prompt.js';

/** The two calls an episode needs: any EnvClient, or an in-process session with the same shape. */
export type EpisodeEnv = Pick<EnvClient, 'reset' | 'step'>;

/** What an agent reads: the AXTree (what the policy sees) and the URL; nothing else is computed. */
export const AGENT_OBSERVATION = {
  axtree: true,
  pruned_html: false,
  extra_properties: false,
  screenshot: 'none',
} as const;

export interface RunEpisodeOptions {
  task: string;
  seed: number;
  /** Default: a random UUID. */
  episodeId?: string;
  groupId?: string | null;
  /** Task options for reset (e.g. the Gauntlet's start_step). */
  resetOptions?: Record<string, unknown>;
  /** Observation parts to compute (default AGENT_OBSERVATION). */
  observation?: ResetInput['observation'];
  actionSet?: ResetInput['action_set'];
  /** Where the env runs the episode's browser (e.g. `{headed: true}`: a visible window). */
  browser?: ResetInput['browser'];
  /** Turns before the episode ends as `timeout` (default 30; the env's own step budget also applies). */
  maxTurns?: number;
  /** The whole episode's deadline in ms (default 10 minutes); past it the episode ends as `timeout`. */
  deadlineMs?: number;
  /** Deadline of each env call in ms (default 60 000), never past the episode's. */
  callTimeoutMs?: number;
  /** Cancels the episode: runEpisode rejects with the signal's reason (no trajectory). */
  signal?: AbortSignal;
  /** Default: systemPromptFor(task). */
  systemPrompt?: string;
  /** Observation budget (characters or tokens). */
  render?: Omit<RenderOptions, 'lastAction'>;
  /** Keep every action line of a reply (default: the action set's multi_action, else false). */
  multiAction?: boolean;
  /**
   * Whether a finished (not truncated) episode succeeded; default: a positive raw reward. A task
   * that reports `judged: false` ends it as `unjudged` instead (see isUnjudged).
   */
  success?: (final: StepResult) => boolean;
  /** Sees every env reply (the reset's first), e.g. for tests that inspect pages. */
  onResult?: (result: StepResult) => void;
}

/**
 * Plays one episode: reset, then { render the observation → policy → parse the action → step }
 * until the env says done, the turns run out or the deadline passes. Returns the Trajectory
 * with its outcome; infrastructure failures become `infra_error` (never a reward). A wrong job
 * (unknown task, bad option, wrong model: see isUnrecoverable) and a cancellation through
 * `signal` reject instead, since no outcome describes them.
 */
export async function runEpisode(
  env: EpisodeEnv,
  policy: EpisodePolicy,
  options: RunEpisodeOptions,
): Promise<Trajectory> {
  const startedAt = new Date();
  const started = performance.now();
  const episodeId = options.episodeId ?? randomUUID();
  const deadlineMs = options.deadlineMs ?? 600_000;
  const deadline = new Deadline(`episode ${episodeId}`, {
    ms: deadlineMs,
    signal: options.signal,
    timeoutError: (message) => new EpisodeTimeoutError(message),
  });
  const call = (): CallOptions => ({
    signal: deadline.signal,
    timeoutMs: Math.max(1, Math.min(options.callTimeoutMs ?? 60_000, deadline.remainingMs())),
  });
  const maxTurns = options.maxTurns ?? 30;
  const multiAction = options.multiAction ?? options.actionSet?.multi_action ?? false;
  const turns: TrajectoryTurn[] = [];
  let promptIds: readonly number[] = [];
  let result: StepResult | undefined;
  let outcome: EpisodeOutcome;
  let error: Trajectory['error'] = null;
  try {
    result = await deadline.race(
      env.reset(
        {
          task_name: options.task,
          seed: options.seed,
          episode_id: episodeId,
          options: options.resetOptions ?? {},
          observation: options.observation ?? AGENT_OBSERVATION,
          ...(options.actionSet ? { action_set: options.actionSet } : {}),
          ...(options.browser ? { browser: options.browser } : {}),
        },
        call(),
      ),
    );
    options.onResult?.(result);
    let observation = renderObservation(result, options.render);
    const systemPrompt = options.systemPrompt ?? systemPromptFor(options.task);
    const session = await deadline.race(
      policy.start({ task: options.task, seed: options.seed, episodeId, systemPrompt, observation, result }, call()),
    );
    promptIds = session.promptIds;
    while (!result.done && turns.length < maxTurns) {
      const before = result;
      const asked = performance.now();
      const reply: PolicyReply = await deadline.race(session.act({ index: turns.length, observation, result }, call()));
      const policyMs = performance.now() - asked;
      const parsed: ParsedAction =
        reply.action === undefined
          ? parseAction(reply.text, { multiAction })
          : { action: reply.action, fallback: false };
      const stepped = performance.now();
      result = await deadline.race(env.step(parsed.action, call()));
      const stepMs = performance.now() - stepped;
      options.onResult?.(result);
      const turn: TrajectoryTurn = {
        index: turns.length,
        observation,
        trimmed_exchanges: reply.trimmedExchanges,
        completion_ids: reply.completionIds,
        logprobs: reply.logprobs,
        env_ids: [],
        action_text: reply.text,
        action: parsed.action,
        action_fallback: parsed.fallback,
        reward: result.reward ?? 0,
        done: result.done,
        error: result.observation.error,
        policy: reply.policy,
        task_info: taskInfo(before),
        policy_ms: ms(policyMs),
        env_ms: ms(envMs(result)),
        step_ms: ms(stepMs),
      };
      turns.push(turn);
      if (!result.done && turns.length < maxTurns) {
        observation = renderObservation(result, { ...options.render, lastAction: parsed.action });
        turn.env_ids = await deadline.race(session.observe(observation, call()));
      }
    }
    outcome =
      !result.done || truncated(result)
        ? 'timeout'
        : isUnjudged(taskInfo(result))
          ? 'unjudged'
          : (options.success ?? positiveRawReward)(result)
            ? 'success'
            : 'fail';
  } catch (caught) {
    if (options.signal?.aborted) throw options.signal.reason;
    if (isUnrecoverable(caught) && !deadline.expired) throw caught;
    outcome = deadline.expired ? 'timeout' : outcomeFromError(caught);
    const reason: unknown = deadline.expired ? deadline.signal.reason : caught;
    error = { name: (reason as Error)?.name ?? 'Error', message: (reason as Error)?.message ?? String(reason) };
  } finally {
    deadline.dispose();
  }
  return {
    episode_id: episodeId,
    group_id: options.groupId ?? null,
    task: options.task,
    seed: options.seed,
    prompt_ids: [...promptIds],
    turns,
    outcome,
    reward: turns.reduce((sum, t) => sum + t.reward, 0),
    error,
    final_task_info: result ? taskInfo(result) : {},
    started_at: startedAt.toISOString(),
    wall_ms: ms(performance.now() - started),
  };
}

/** The task's own facts in a reply's metadata (e.g. the Gauntlet's step, type, steps solved). */
export function taskInfo(result: StepResult): Record<string, unknown> {
  const info = result.metadata.browsergym_info['task_info'];
  return info && typeof info === 'object' && !Array.isArray(info) ? (info as Record<string, unknown>) : {};
}

/** Env time of one step as the server measured it (action, validation, observation). */
function envMs(result: StepResult): number {
  const info = result.metadata.browsergym_info;
  return ['action_ms', 'validate_ms', 'observe_ms'].reduce(
    (sum, key) => sum + (typeof info[key] === 'number' ? (info[key] as number) : 0),
    0,
  );
}

function truncated(result: StepResult): boolean {
  return result.metadata.browsergym_info['truncated'] === true;
}

/** BrowserGym's rule: a finished episode succeeded when its raw reward is positive (the reward when there is none). */
function positiveRawReward(result: StepResult): boolean {
  const raw = result.metadata.browsergym_info['raw_reward'];
  return (typeof raw === 'number' ? raw : (result.reward ?? 0)) > 0;
}

const ms = (x: number) => Math.round(Math.max(0, x) * 10) / 10;
