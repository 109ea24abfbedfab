import { ValidationError, type StepResult } from '@gauntlet/proto';
import { runEpisode } from '@gauntlet/proto/agent';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessionEnv } from '../../src/cli/in-process-envs.js';
import { DEFAULTS, type ServerConfig } from '../../src/config.js';
import { EnvService } from '../../src/server/env-service.js';
import type { EnvSession } from '../../src/sessions/session.js';
import { oraclePolicy } from '../../src/tasks/oracle-helpers/oracle-policy.js';
import type { TaskDefinition } from '../../src/tasks/task.js';

export interface FamilyConformanceOptions {
  /** Server settings beside the test defaults (e.g. where real MiniWoB++ is served); read when the server starts. */
  config?: Partial<ServerConfig> | (() => Partial<ServerConfig>);
  /** Options every reset needs (the `web` task's url and goal); read at each reset. */
  resetOptions?(): Record<string, unknown>;
  /** The family's tasks, picked from the server's registry. */
  select(task: TaskDefinition): boolean;
  /** Seeds each oracle must solve; 0 seeds = no oracle check, with the reason in `noOracle`. */
  oracleSeeds: readonly number[];
  /** Tasks whose oracle is played (default: all); real MiniWoB++ pages have ours only where a built-in twin lends it. */
  solvable?(task: TaskDefinition): boolean;
  /** Why a family's oracles are not played (required when `oracleSeeds` is empty). */
  noOracle?: string;
  /**
   * Tasks whose page changes with wall time (a countdown, a playing video): two resets with one
   * seed then show the same elements and bids, but their text may differ.
   */
  timed?(task: TaskDefinition): boolean;
  /** Reset options no task of the family accepts. */
  badOptions?: Record<string, unknown>;
  /** Per-test timeout (ms); the Gauntlet's full run needs minutes on a loaded machine. */
  timeoutMs?: number;
}

const OBSERVATION = { axtree: true, pruned_html: true, extra_properties: false } as const;

/**
 * The one suite every task family passes, on a real env server and Chromium: same seed → same
 * observation on a fresh and on a reused session; the oracle solves its seeds through reset and
 * step; reset options the task does not take are a ValidationError and the session goes on.
 */
export function describeFamilyConformance(label: string, options: FamilyConformanceOptions): void {
  let service: EnvService;
  let reused: EnvSession;
  beforeAll(async () => {
    service = new EnvService({
      ...structuredClone(DEFAULTS),
      warmContexts: 1,
      maxSessions: 4,
      idleTtlMs: 0,
      ...(typeof options.config === 'function' ? options.config() : options.config),
    });
    await service.start();
    reused = await service.openSession('inproc');
  });
  afterAll(() => service?.shutdown());

  const reset = (session: EnvSession, task: TaskDefinition, seed: number, bad?: Record<string, unknown>) =>
    service.reset(session, {
      task_name: `${task.benchmark}.${task.name}`,
      seed,
      observation: OBSERVATION,
      options: { ...options.resetOptions?.(), ...bad },
    });

  const tasks = (): TaskDefinition[] => {
    const found = service.registry.list().filter(options.select);
    expect(found.length, `${label}: tasks in the registry`).toBeGreaterThan(0);
    return found;
  };
  const timeout = options.timeoutMs ?? 120_000;

  describe(`task family ${label}`, () => {
    it('same seed, same observation: on a fresh session and on a reused one', { timeout }, async () => {
      for (const task of tasks()) {
        const fresh = await service.openSession('inproc');
        try {
          const first = await reset(fresh, task, 7);
          await reset(reused, task, 8);
          const again = await reset(reused, task, 7);
          const sameAgain = await reset(reused, task, 7);
          const view = options.timed?.(task) ? skeleton : seen;
          expect(view(again), `${task.name}: reused session`).toEqual(view(first));
          expect(view(sameAgain), `${task.name}: same seed twice in a row`).toEqual(view(first));
          expect(first.observation.goal, task.name).not.toBe('');
          expect(first).toMatchObject({ reward: 0, done: false });
        } finally {
          await service.close(fresh, 'client');
        }
      }
    });

    if (options.oracleSeeds.length > 0) {
      it(`the oracle solves ${options.oracleSeeds.length} seed(s) through reset/step`, { timeout }, async () => {
        for (const task of tasks().filter((t) => options.solvable?.(t) ?? true)) {
          for (const seed of options.oracleSeeds) {
            const trajectory = await runEpisode(sessionEnv(service, reused), oraclePolicy(task), {
              task: `${task.benchmark}.${task.name}`,
              seed,
              observation: OBSERVATION,
              resetOptions: options.resetOptions?.() ?? {},
              maxTurns: task.maxSteps,
              deadlineMs: timeout,
            });
            const where = `${task.name} seed ${seed}: ${trajectory.turns.map((t) => t.action).join(' → ')}`;
            expect(trajectory, where).toMatchObject({ outcome: 'success', error: null });
            expect(service.state(reused).done, where).toBe(true);
          }
        }
      });
    } else {
      it(`has a stated reason to play no oracle: ${options.noOracle}`, () => {
        expect(options.noOracle ?? '').not.toBe('');
      });
    }

    it('reset options the task does not take are a ValidationError; the session goes on', { timeout }, async () => {
      const bad = options.badOptions ?? { no_such_option: 1 };
      for (const task of tasks()) {
        const error = await reset(reused, task, 1, bad).catch((e: unknown) => e);
        expect(error, task.name).toBeInstanceOf(ValidationError);
        expect((error as ValidationError).message, task.name).toMatch(Object.keys(bad)[0]!);
        await expect(reset(reused, task, 1)).resolves.toMatchObject({ done: false });
      }
    });
  });
}

/**
 * What must not differ between two resets with one seed. Blob URLs are the browser's random
 * names for in-memory media (the Gauntlet's audio clip): the same clip gets a new name each time.
 */
function seen(result: StepResult) {
  const o = result.observation;
  const unblob = (text: string) => text.replace(/blob:([^"'\s]+?)\/[0-9a-f-]{36}/g, 'blob:$1/<id>');
  return { goal: o.goal, url: o.url, axtree_txt: unblob(o.axtree_txt), pruned_html: unblob(o.pruned_html) };
}

/**
 * For timed tasks: goal, url, and every element's bid and role, in order, but live regions (ARIA
 * `live`, HTML `<output>`): those are what a page updates on its own clock, so whether one is
 * shown at the moment of the look is the clock's, not the seed's.
 */
function skeleton(result: StepResult) {
  const o = result.observation;
  const elements = [...o.axtree_txt.matchAll(/^\t*\[(\w+)\] (\S+)(.*)$/gm)]
    .filter((m) => !/\blive=/.test(m[3]!))
    .map((m) => `${m[1]} ${m[2]}`);
  const bids = [...o.pruned_html.matchAll(/<(\w+) bid="(\w+)"([^>]*)>/g)]
    .filter((m) => m[1] !== 'output' && !/role="(status|log|timer|marquee|alert)"|aria-live=/.test(m[3]!))
    .map((m) => `${m[2]} ${m[1]}`);
  return { goal: o.goal, url: o.url, elements, bids };
}
