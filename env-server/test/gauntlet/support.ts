import type { StepResult } from '@gauntlet/proto';
import { runEpisode } from '@gauntlet/proto/agent';
import type { Trajectory } from '@gauntlet/proto/rollout';
import type { Frame, Page } from 'playwright-core';
import { sessionEnv } from '../../src/cli/in-process-envs.js';
import { DEFAULTS } from '../../src/config.js';
import { EnvService } from '../../src/server/env-service.js';
import type { EnvSession } from '../../src/sessions/session.js';
import { oraclePolicy } from '../../src/tasks/oracle-helpers/oracle-policy.js';

export { oracleView } from '../../src/tasks/oracle-helpers/oracle-policy.js';

/** What the oracle reads: the AXTree alone (the leak test reads pruned HTML and the DOM too). */
export const ORACLE_OBSERVATION = { axtree: true, pruned_html: false, extra_properties: false } as const;

/**
 * Per-action timeout in these suites. BrowserGym's 500 ms (the default) is for agents; on a loaded
 * CI machine Playwright's actionability checks on a button three frames deep have taken longer,
 * and the suites test the puzzles, not that latency (the action tests cover the timeout itself).
 */
const SUITE_ACTION_TIMEOUT_MS = 3000;

/** One in-process env per test file, with `sessions` sessions (each resets in place between episodes). */
export async function openEnv(
  sessions = 1,
): Promise<{ service: EnvService; session: EnvSession; sessions: EnvSession[] }> {
  const service = new EnvService({
    ...structuredClone(DEFAULTS),
    warmContexts: 0,
    maxSessions: sessions + 1,
    actionTimeoutMs: SUITE_ACTION_TIMEOUT_MS,
  });
  await service.start();
  const opened = await Promise.all(Array.from({ length: sessions }, () => service.openSession('inproc')));
  return { service, session: opened[0]!, sessions: opened };
}

/** Runs `work` over `items` on `workers` sessions at once (timing puzzles mostly wait, so they overlap well). */
export async function onSessions<T>(
  sessions: EnvSession[],
  items: readonly T[],
  work: (session: EnvSession, item: T) => Promise<void>,
): Promise<void> {
  const queue = [...items];
  await Promise.all(
    sessions.map(async (session) => {
      for (let item = queue.shift(); item !== undefined; item = queue.shift()) await work(session, item);
    }),
  );
}

export function taskInfo(result: StepResult): Record<string, any> {
  return result.metadata.browsergym_info['task_info'] as Record<string, any>;
}

export interface SolvedEpisode {
  last: StepResult;
  actions: string[];
  errors: string[];
  /** Every observation the oracle saw, in order (reset first). */
  seen: StepResult[];
  trajectory: Trajectory;
}

/** Resets `task` at `seed` and lets the task's oracle play it through runEpisode until the env says done. */
export async function solveEpisode(
  service: EnvService,
  session: EnvSession,
  task: string,
  seed: number,
  options: Record<string, unknown> = {},
): Promise<SolvedEpisode> {
  const seen: StepResult[] = [];
  const trajectory = await runEpisode(sessionEnv(service, session), oraclePolicy(service.registry.resolve(task)), {
    task,
    seed,
    resetOptions: options,
    observation: ORACLE_OBSERVATION,
    maxTurns: Infinity,
    deadlineMs: 10 * 60_000,
    onResult: (result) => seen.push(result),
  });
  if (trajectory.error)
    throw new Error(
      `${task} seed ${seed} ended as ${trajectory.outcome}: ${trajectory.error.name}: ${trajectory.error.message}`,
    );
  return {
    last: seen[seen.length - 1]!,
    actions: trajectory.turns.map((t) => t.action),
    errors: trajectory.turns.filter((t) => t.error).map((t) => `${t.action} → ${t.error}`),
    seen,
    trajectory,
  };
}

/** Whether `code` occurs (any letter case) in the observation's AXTree or pruned HTML. */
export function observationShows(result: StepResult, code: string): boolean {
  const wanted = code.toLowerCase();
  return (
    result.observation.axtree_txt.toLowerCase().includes(wanted) ||
    result.observation.pruned_html.toLowerCase().includes(wanted)
  );
}

/** The page's whole markup: every frame's document, with open shadow roots spelled out. */
export async function fullMarkup(page: Page): Promise<string> {
  const parts = await Promise.all(
    page.frames().map((frame: Frame) =>
      frame
        .evaluate(() => {
          const out: string[] = [document.documentElement.outerHTML];
          const walk = (root: Document | ShadowRoot) => {
            for (const el of root.querySelectorAll('*')) {
              if (el.shadowRoot) {
                out.push(el.shadowRoot.innerHTML);
                walk(el.shadowRoot);
              }
            }
          };
          walk(document);
          return out.join('\n');
        })
        .catch(() => ''),
    ),
  );
  return parts.join('\n');
}
