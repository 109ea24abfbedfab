import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StepResult } from '@gauntlet/proto';
import { runEpisode } from '@gauntlet/proto/agent';
import { sessionEnv } from '../../src/cli/in-process-envs.js';
import { DEFAULTS } from '../../src/config.js';
import { EnvService } from '../../src/server/env-service.js';
import type { EnvSession } from '../../src/sessions/session.js';
import { oraclePolicy } from '../../src/tasks/oracle-helpers/oracle-policy.js';

// Every task solved by its oracle through the real env and runEpisode: real observation in,
// action string out, executed by the env's own step.
const SEEDS = Array.from({ length: 20 }, (_, i) => i * 7 + 1);

let service: EnvService;
let session: EnvSession;
beforeAll(async () => {
  service = new EnvService({ ...structuredClone(DEFAULTS), warmContexts: 1, maxSessions: 2 });
  await service.start();
  session = await service.openSession('inproc');
});
afterAll(() => service.shutdown());

/** The fewest actions each task needs; the oracle must not waste any. */
const MIN_STEPS: Record<string, number> = {
  'click-test': 1,
  'click-button': 1,
  'click-link': 1,
  'enter-text': 2,
  'login-user': 3,
};

describe.each(Object.keys(MIN_STEPS))('%s oracle', (taskName) => {
  it(`solves ${SEEDS.length} seeds through reset/step in the fewest actions`, async () => {
    const task = service.registry.resolve(taskName);
    for (const seed of SEEDS) {
      let last: StepResult | undefined;
      const trajectory = await runEpisode(sessionEnv(service, session), oraclePolicy(task), {
        task: taskName,
        seed,
        observation: { pruned_html: true, axtree: true },
        maxTurns: task.maxSteps,
        onResult: (result) => (last = result),
      });
      const where = `seed ${seed} after ${trajectory.turns.map((t) => t.action).join(' → ')}`;
      expect(
        trajectory.turns.map((t) => t.error),
        where,
      ).toEqual(trajectory.turns.map(() => ''));
      expect(trajectory, where).toMatchObject({ outcome: 'success', reward: 1, error: null });
      expect(trajectory.turns).toHaveLength(MIN_STEPS[taskName]!);
      expect(last!.metadata.browsergym_info.raw_reward).toBe(1);
      expect(service.state(session).cum_reward).toBe(1);
    }
  });
});
