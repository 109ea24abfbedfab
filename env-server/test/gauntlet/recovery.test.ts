import { runEpisode, scriptedPolicy } from '@gauntlet/proto/agent';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessionEnv } from '../../src/cli/in-process-envs.js';
import type { EnvService } from '../../src/server/env-service.js';
import type { EnvSession } from '../../src/sessions/session.js';
import { CHALLENGE_TYPES } from '../../src/tasks/gauntlet/challenges/index.js';
import { ORACLE_ACTION_SET, ORACLE_OBSERVATION } from '../../src/collect/gauntlet/env-port.js';
import { Rng } from '../../src/tasks/gauntlet/rng.js';
import { gauntletOracle } from '../../src/tasks/gauntlet/oracle/policy.js';
import { wrongAction } from './wrong-action.js';
import { onSessions, openEnv } from './support.js';

/** Seeds per type: seed i plays wrong move number i / 2 in place of the oracle's first or second action (i % 2) (clicks on every control come first). */
const SEEDS = Array.from({ length: 12 }, (_, i) => 300 + i * 53);

let service: EnvService;
let sessions: EnvSession[];
beforeAll(async () => {
  // Most of this file's time is timing puzzles waiting on the page's clock: 6 sessions overlap the waits.
  ({ service, sessions } = await openEnv(6));
});
afterAll(() => service.shutdown());

/**
 * The oracle must take over from any state the page can reach: a wrong action on the puzzle (a
 * click on another control, junk typed into a field, an early submit) is played on the first or
 * second turn, then the oracle plays on and must still solve the step.
 */
describe.each(CHALLENGE_TYPES)('gauntlet:%s', (type) => {
  it(`the oracle recovers from a wrong action on ${SEEDS.length} seeds`, async () => {
    await onSessions(sessions, SEEDS, async (session, seed) => {
      const rng = new Rng(seed, 'recovery', type);
      const wrongAt = SEEDS.indexOf(seed) % 2;
      const pick = Math.floor(SEEDS.indexOf(seed) / 2);
      const played: string[] = [];
      let acting = 0;
      const policy = scriptedPolicy('recovery-test', () => ({ result }) => {
        const oracle = gauntletOracle({
          goal: '',
          axtree_txt: result.observation.axtree_txt,
          pruned_html: '',
          url: result.observation.url,
          focused_element_bid: '',
        });
        // Count only turns where the oracle acts (not waits): the page is ready for a wrong move there.
        const wrong =
          /^noop\(/.test(oracle) || acting++ !== wrongAt
            ? undefined
            : wrongAction(result.observation.axtree_txt, oracle, pick, rng);
        played.push(wrong ?? oracle);
        return wrong ?? oracle;
      });
      const episode = await runEpisode(sessionEnv(service, session), policy, {
        task: `gauntlet:${type}`,
        seed,
        observation: ORACLE_OBSERVATION,
        actionSet: ORACLE_ACTION_SET,
        maxTurns: 80,
        deadlineMs: 5 * 60_000,
      });
      const where = `seed ${seed}: ${played.join(' → ')}`;
      expect(episode.outcome, `${where} ${episode.error?.message ?? ''}`).toBe('success');
      expect(episode.final_task_info, where).toMatchObject({ solved: 1, view: 'done' });
    });
    // Timing puzzles may wait out a whole cycle after a lock: generous on a loaded machine.
  }, 300_000);
});
