import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StepResult } from '@gauntlet/proto';
import { runEpisode } from '@gauntlet/proto/agent';
import { sessionEnv } from '../../src/cli/in-process-envs.js';
import { DEFAULTS } from '../../src/config.js';
import { EnvService } from '../../src/server/env-service.js';
import type { EnvSession } from '../../src/sessions/session.js';
import { oraclePolicy, oracleView } from '../../src/tasks/oracle-helpers/oracle-policy.js';
import { WRONG_MOVES } from './wrong-moves.js';

// MiniWoB-style tasks through the real env (Chromium, reset/step, observations), beside the
// family conformance suite: each oracle wins 8 seeds with reward 1, raw reward 1 and no action
// error, and a wrong terminal move scores as in MiniWoB (raw reward -1, reward 0, done).
const SEEDS = [1, 2, 3, 4, 5, 6, 7, 8];
const TASKS = [
  'choose-list',
  'click-checkboxes',
  'click-option',
  'click-tab',
  'click-collapsible',
  'click-dialog',
  'enter-password',
  'enter-text-dynamic',
  'focus-text',
  'use-autocomplete',
  'choose-date',
  'navigate-tree',
  'search-engine',
  'email-inbox',
  'book-flight',
];
const OBSERVATION = { pruned_html: true, axtree: true } as const;

let service: EnvService;
let session: EnvSession;
beforeAll(async () => {
  service = new EnvService({ ...structuredClone(DEFAULTS), warmContexts: 1, maxSessions: 2 });
  await service.start();
  session = await service.openSession('inproc');
});
afterAll(() => service.shutdown());

it('has a wrong move for every task but click-collapsible, which has no losing move', () => {
  expect(Object.keys(WRONG_MOVES).sort()).toEqual(TASKS.filter((name) => name !== 'click-collapsible').sort());
});

describe.each(TASKS)('%s', (taskName) => {
  it(`its oracle wins ${SEEDS.length} seeds through reset/step`, async () => {
    const task = service.registry.resolve(taskName);
    for (const seed of SEEDS) {
      let last: StepResult | undefined;
      const trajectory = await runEpisode(sessionEnv(service, session), oraclePolicy(task), {
        task: taskName,
        seed,
        observation: OBSERVATION,
        maxTurns: task.maxSteps,
        onResult: (result) => (last = result),
      });
      const where = `seed ${seed} after ${trajectory.turns.map((t) => t.action).join(' → ')}`;
      expect(
        trajectory.turns.map((t) => t.error),
        where,
      ).toEqual(trajectory.turns.map(() => ''));
      expect(trajectory, where).toMatchObject({ outcome: 'success', reward: 1, error: null });
      expect(last!.metadata.browsergym_info.raw_reward, where).toBe(1);
    }
  });

  const wrong = WRONG_MOVES[taskName];
  if (!wrong) return;
  it('a wrong terminal move ends the episode with raw reward -1 and reward 0', async () => {
    const env = sessionEnv(service, session);
    const task = service.registry.resolve(taskName);
    const lost: number[] = [];
    for (let seed = 1; seed <= 30 && lost.length < 3; seed++) {
      let result = await env.reset({ task_name: taskName, seed, ...OBSERVATION });
      for (let turn = 0; turn < task.maxSteps && !result.done; turn++) {
        const action = wrong(oracleView(result));
        if (action === null) break;
        result = await env.step(action);
        expect(result.observation.metadata.browsergym_obs.last_action_error, `seed ${seed}: ${action}`).toBe('');
      }
      if (!result.done) continue;
      expect({ seed, reward: result.reward, raw: result.metadata.browsergym_info.raw_reward }).toEqual({
        seed,
        reward: 0,
        raw: -1,
      });
      lost.push(seed);
    }
    expect(lost).toHaveLength(3);
  });
});

describe('click-collapsible has no losing move (as in MiniWoB)', () => {
  it('opening and closing the section leaves the episode running', async () => {
    const env = sessionEnv(service, session);
    let result = await env.reset({ task_name: 'click-collapsible', seed: 3, ...OBSERVATION });
    const header = /\[(\w+)\] button 'Section: /.exec(result.observation.axtree_txt)![1]!;
    for (const expanded of ['True', 'False']) {
      result = await env.step(`click('${header}')`);
      expect(result.observation.axtree_txt).toContain(`expanded=${expanded}`);
      expect({ done: result.done, raw: result.metadata.browsergym_info.raw_reward }).toEqual({ done: false, raw: 0 });
    }
  });
});
