import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EnvService } from '../../src/server/env-service.js';
import type { EnvSession } from '../../src/sessions/session.js';
import type { ChallengeType } from '../../src/tasks/gauntlet/categories.js';
import { planRun } from '../../src/tasks/gauntlet/plan.js';
import { observationShows, onSessions, openEnv, solveEpisode, taskInfo } from './support.js';

/** 20 spread-out seeds per type: the issue asks for at least 20 in tests (50 are measured by `gauntlet-env solve`). */
export const ORACLE_SEEDS = Array.from({ length: 20 }, (_, i) => 1000 + i * 37);

/**
 * Every listed type solved by its oracle on every seed, through the real env (reset, observe,
 * step), with no wrong code, no action error, and the code hidden when the step opens.
 * `sessions` play seeds at once: types that mostly wait on the page's clock take more, so their
 * waits overlap instead of adding up.
 */
export function oracleSuite(types: readonly ChallengeType[], { sessions: count = 3 } = {}): void {
  let service: EnvService;
  let sessions: EnvSession[];
  beforeAll(async () => {
    ({ service, sessions } = await openEnv(count));
  });
  afterAll(() => service.shutdown());

  describe.each(types)('gauntlet:%s', (type) => {
    it(`its oracle solves ${ORACLE_SEEDS.length} seeds through reset/step`, async () => {
      await onSessions(sessions, ORACLE_SEEDS, async (session, seed) => {
        const code = planRun(seed, type).steps[0]!.code;
        const episode = await solveEpisode(service, session, `gauntlet:${type}`, seed);
        const where = `seed ${seed}: ${episode.actions.join(' → ')}`;
        expect(observationShows(episode.seen[0]!, code), `${where}: code visible at reset`).toBe(false);
        expect(episode.errors, where).toEqual([]);
        expect(episode.last.reward, where).toBe(1);
        expect(episode.last.metadata.browsergym_info['truncated'], where).toBe(false);
        expect(taskInfo(episode.last)).toMatchObject({ solved: 1, view: 'done', wrong_codes: 0 });
        expect(service.state(session).cum_reward, where).toBe(1);
      });
      // Timing puzzles wait seconds by design (the timer up to 7 s a seed): generous on a loaded machine.
    }, 240_000);
  });
}
