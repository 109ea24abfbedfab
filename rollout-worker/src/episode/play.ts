import { runEpisode, type DemonstrationView, type EpisodeEnv } from '@gauntlet/proto/agent';
import { PolicyRequestError } from '@gauntlet/proto/policy-server';
import {
  laterVersionServed,
  PolicyVersionRetiredError,
  type EpisodeSettings,
  type PolicyRef,
  type Trajectory,
} from '@gauntlet/proto/rollout';
import type { EnvPool } from '../env/env-pool.js';
import type { EpisodePolicyChoice } from '../policies/policy-pool.js';

/** One episode to play: what an episode job carries, or an evaluation's own. */
export interface EpisodeSpec {
  task: string;
  seed: number;
  episode_id: string;
  group_id: string | null;
  policy: PolicyRef;
  settings: EpisodeSettings;
  /** A demonstration of the task written into every observation (eval --demo: a demo-conditioned policy). */
  demonstration?: DemonstrationView | undefined;
}

/** Chooses each episode's policy (a PolicyPool, or a scripted one in tests). */
export interface PolicySource {
  forEpisode(policy: PolicyRef, settings: EpisodeSettings): EpisodePolicyChoice;
}

export interface Players {
  envs: EnvPool;
  policies: PolicySource;
  /** Deadline of each env call in ms (default 60 000). */
  callTimeoutMs?: number;
  /**
   * How long an episode waits for an env session while every server is full, before its clock
   * starts (default 60 000; never past the episode's own deadline).
   */
  envWaitMs?: number;
}

export const DEFAULT_ENV_WAIT_MS = 60_000;

/**
 * Plays one episode on the next env server and policy server in turn. The env session is held
 * first, waiting while every server is full, so the wait never eats the episode's deadline.
 * Infrastructure failures come back as an `infra_error` trajectory (EnvBusyError when the wait
 * ran out); a wrong job and a cancellation reject (runEpisode's rules). The env session is kept
 * for the next episode only when this one ended cleanly.
 */
export async function playEpisode(spec: EpisodeSpec, players: Players, signal?: AbortSignal): Promise<Trajectory> {
  // First: a job naming a policy server this worker lacks fails before any env session opens.
  const choice = players.policies.forEpisode(spec.policy, spec.settings);
  const { policy } = choice;
  const lease = players.envs.lease();
  let clean = false;
  try {
    const s = spec.settings;
    const waitMs = Math.min(players.envWaitMs ?? DEFAULT_ENV_WAIT_MS, s.deadline_ms);
    const callTimeoutMs = players.callTimeoutMs ?? 60_000;
    const unready = await lease.acquire({ signal, waitMs, timeoutMs: callTimeoutMs }).then(
      () => undefined,
      (error: unknown) => error,
    );
    if (signal?.aborted) throw signal.reason;
    // What the wait met (a busy, unreachable or wrong env) is the reset's failure, as runEpisode reports it.
    const env: EpisodeEnv =
      unready === undefined
        ? lease
        : { reset: () => Promise.reject(unready), step: (action, options) => lease.step(action, options) };
    const trajectory = await runEpisode(env, policy, {
      task: spec.task,
      seed: spec.seed,
      episodeId: spec.episode_id,
      groupId: spec.group_id,
      resetOptions: s.reset_options,
      maxTurns: s.max_turns,
      deadlineMs: s.deadline_ms,
      callTimeoutMs,
      render: {
        format: s.observation_format,
        ...(s.observation_chars === null ? {} : { maxChars: s.observation_chars }),
        ...(spec.demonstration ? { demonstration: spec.demonstration } : {}),
      },
      ...(signal ? { signal } : {}),
    }).catch(async (error: unknown) => {
      throw await retiredOr(error, spec.policy, choice);
    });
    clean = trajectory.outcome !== 'infra_error';
    return trajectory;
  } finally {
    lease.release(clean);
  }
}

/**
 * A 404 for a versioned adapter, from a server that already serves a later version of its run,
 * is the learner having moved on (the version fell out of the server's keep window while the
 * group waited): a PolicyVersionRetiredError, the group stale. Any other error stays as it is.
 */
async function retiredOr(error: unknown, asked: PolicyRef, choice: EpisodePolicyChoice): Promise<unknown> {
  if (!(error instanceof PolicyRequestError) || error.status !== 404) return error;
  if (asked.version === null || !asked.adapter || !choice.served) return error;
  const served = await choice.served().catch(() => null);
  if (!served || !laterVersionServed(asked.adapter, served)) return error;
  return new PolicyVersionRetiredError(asked.adapter, `${choice.server} serves ${served.join(', ')}`);
}
