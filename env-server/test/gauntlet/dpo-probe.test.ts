import type { RecordMessage } from '@gauntlet/proto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessionEnv } from '../../src/cli/in-process-envs.js';
import type { EnvService } from '../../src/server/env-service.js';
import type { EnvSession } from '../../src/sessions/session.js';
import { collectPreferencePairs } from '../../src/collect/gauntlet/dpo-probe.js';
import { episodeKey } from '../../src/collect/records.js';
import { planRun } from '../../src/tasks/gauntlet/plan.js';
import { onSessions, openEnv } from './support.js';

let service: EnvService;
let sessions: EnvSession[];
beforeAll(async () => {
  ({ service, sessions } = await openEnv(2));
});
afterAll(() => service.shutdown());

const JOBS = (['modal_decoy', 'cookie_storage', 'websocket', 'click_sequence', 'timer', 'encrypted'] as const).flatMap(
  (type) => [11, 12].map((seed) => ({ type, seed })),
);

describe('DPO probe', () => {
  it('solves every step while trying wrong moves, and keeps only verified, instructive pairs', async () => {
    const pairs: Awaited<ReturnType<typeof collectPreferencePairs>>['pairs'] = [];
    await onSessions(sessions, JOBS, async (session, { type, seed }) => {
      const probe = await collectPreferencePairs(sessionEnv(service, session), `gauntlet:${type}`, seed, {
        perStep: 3,
      });
      expect(probe, `${type} seed ${seed}`).toMatchObject({ outcome: 'success', solved: 1, total: 1 });
      for (const pair of probe.pairs) {
        const code = planRun(seed, type).steps[0]!.code;
        expect(pair.chosen[0]!.content, `${type} seed ${seed}`).not.toMatch(/^noop\(/);
        expect(pair.rejected[0]!.content).not.toBe(pair.chosen[0]!.content);
        expect(pair.rejected[0]!.content.includes(`'${code}'`)).toBe(false);
        expect(roles(pair.prompt)).toEqual(['system', ...alternating(pair.prompt.length - 1)]);
      }
      pairs.push(...probe.pairs);
    });
    const rejected = pairs.map((p) => p.rejected[0]!.content);
    const byOutcome = (o: string) => pairs.filter((p) => p.rejected_outcome === o).length;
    expect(byOutcome('wrong_code')).toBeGreaterThan(JOBS.length);
    expect(byOutcome('puzzle_mistake')).toBeGreaterThan(4);
    // A wrong code that is printed on the page (a popup's or a stored entry's decoy).
    expect(
      pairs.some((p) => {
        const typed = /fill\('[^']+', '([A-Z0-9]{6})'\)/.exec(p.rejected[0]!.content)?.[1];
        return typed !== undefined && p.prompt.at(-1)!.content.includes(typed);
      }),
    ).toBe(true);
    // Transposed characters: the rejected code is the chosen one with two neighbours swapped.
    expect(
      pairs.some((p) => {
        const [chosen, wrong] = [p.chosen, p.rejected].map(
          (m) => /fill\('[^']+', '([A-Z0-9]{6})'\)/.exec(m[0]!.content)?.[1],
        );
        return chosen && wrong && [...chosen].sort().join('') === [...wrong].sort().join('') && chosen !== wrong;
      }),
    ).toBe(true);
    // Prompts carry the step's earlier exchanges, as SFT records do.
    expect(pairs.some((p) => p.prompt.length > 2)).toBe(true);
    // The bid of "Submit code" in the observation a pair answers.
    const submitBid = (p: (typeof pairs)[number]) =>
      /\[(\w+)\] button 'Submit code'/.exec(p.prompt.at(-1)!.content)?.[1];
    // Submitting before the puzzle is solved (an empty code box).
    expect(pairs.some((p) => p.rejected[0]!.content === `click('${submitBid(p)}')`)).toBe(true);
    // The wrong element: a click on one of the puzzle's controls other than the oracle's.
    expect(
      pairs.some(
        (p) =>
          /^click\('\w+'\)$/.test(p.rejected[0]!.content) &&
          p.rejected[0]!.content !== `click('${submitBid(p)}')` &&
          p.rejected_outcome === 'puzzle_mistake',
      ),
    ).toBe(true);
    expect(rejected.some((a) => /^click\('\d+'\)$/.test(a))).toBe(true);
  });

  it('keys a full run started later apart from one started at step 1', () => {
    expect(episodeKey('gauntlet', 4, 12)).not.toBe(episodeKey('gauntlet', 4));
    expect(episodeKey('gauntlet', 4, 1)).toBe(episodeKey('gauntlet', 4));
  });
});

const roles = (messages: RecordMessage[]) => messages.map((m) => m.role);
const alternating = (n: number) => Array.from({ length: n }, (_, i) => (i % 2 ? 'assistant' : 'user'));
