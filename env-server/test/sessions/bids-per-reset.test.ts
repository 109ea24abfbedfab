import { afterAll, beforeAll, expect, it } from 'vitest';
import { DEFAULTS } from '../../src/config.js';
import { EnvService } from '../../src/server/env-service.js';
import type { EnvSession } from '../../src/sessions/session.js';

let service: EnvService;
let session: EnvSession;
beforeAll(async () => {
  service = new EnvService({ ...structuredClone(DEFAULTS), warmContexts: 0, maxSessions: 1, idleTtlMs: 0 });
  await service.start();
  session = await service.openSession('inproc');
});
afterAll(() => service.shutdown());

const clickMe = (axtree: string) => /\[(\w+)\] button 'Click Me!'/.exec(axtree)?.[1];

it("bids restart at every reset: the README's click-test example works the second time too", async () => {
  const first = await service.reset(session, { task_name: 'click-test', seed: 1 });
  const bid = clickMe(first.observation.axtree_txt);
  expect(bid).toBeDefined();
  for (let round = 0; round < 3; round++) {
    const again = await service.reset(session, { task_name: 'click-test', seed: 1 });
    expect(again.observation.axtree_txt).toBe(first.observation.axtree_txt);
    const step = await service.step(session, { action: { action_str: `click('${bid}')` } });
    expect(step).toMatchObject({ reward: 1, done: true });
  }
});

it('bids restart after an episode that added elements (a reset after typing into enter-text)', async () => {
  const first = await service.reset(session, { task_name: 'enter-text', seed: 4 });
  const field = /\[(\w+)\] textbox/.exec(first.observation.axtree_txt)![1]!;
  await service.step(session, { action: { action_str: `fill('${field}', 'abc')` } });
  await service.reset(session, { task_name: 'click-test', seed: 2 });
  const again = await service.reset(session, { task_name: 'enter-text', seed: 4 });
  expect(again.observation.axtree_txt).toBe(first.observation.axtree_txt);
});
