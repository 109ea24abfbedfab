import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULTS } from '../../src/config.js';
import { EnvService } from '../../src/server/env-service.js';
import type { EnvSession } from '../../src/sessions/session.js';

// Every task solved by its oracle through the real env: real observation in, action string out,
// executed by the env's own step.
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
const MIN_STEPS: Record<string, number> = { 'click-test': 1, 'click-button': 1, 'click-link': 1, 'enter-text': 2, 'login-user': 3 };

describe.each(Object.keys(MIN_STEPS))('%s oracle', (taskName) => {
  it(`solves ${SEEDS.length} seeds through reset/step in the fewest actions`, async () => {
    const task = service.registry.resolve(taskName);
    for (const seed of SEEDS) {
      let result = await service.reset(session, { task_name: taskName, seed, observation: { pruned_html: true, axtree: true } });
      const actions: string[] = [];
      while (!result.done) {
        const { observation } = result;
        const action = task.oracle({ goal: observation.goal, axtree_txt: observation.axtree_txt, pruned_html: observation.pruned_html, url: observation.url, focused_element_bid: observation.metadata.browsergym_obs.focused_element_bid });
        actions.push(action);
        result = await service.step(session, { action: { action_str: action } });
        expect(result.observation.error, `seed ${seed}: ${action}`).toBe('');
      }
      expect(result.reward, `seed ${seed} after ${actions.join(' → ')}`).toBe(1);
      expect(actions).toHaveLength(MIN_STEPS[taskName]!);
      expect(result.metadata.browsergym_info.raw_reward).toBe(1);
      expect(service.state(session).cum_reward).toBe(1);
    }
  });
});
