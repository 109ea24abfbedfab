import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { EpisodeStateError, type StepResult } from '@gauntlet/proto';
import { DEFAULTS } from '../../src/config.js';
import { EnvService } from '../../src/server/env-service.js';
import type { EnvSession } from '../../src/sessions/session.js';
import { OVERRUN_GRACE_MS } from '../../src/sessions/supervise.js';

let service: EnvService;
beforeAll(async () => {
  service = new EnvService({ ...structuredClone(DEFAULTS), warmContexts: 1, maxSessions: 3, idleTtlMs: 0 });
  await service.start();
});
afterAll(() => service.shutdown());

const COORD = { subsets: ['bid', 'coord'] };
const step = (session: EnvSession, action: string, timeoutS?: number) =>
  service.step(session, { action: { action_str: action }, ...(timeoutS === undefined ? {} : { timeout_s: timeoutS }) });

async function withSession(work: (session: EnvSession) => Promise<void>): Promise<void> {
  const session = await service.openSession('inproc');
  try {
    await work(session);
  } finally {
    await service.close(session, 'client');
  }
}

describe('numbers Chromium cannot take are refused before they reach it', () => {
  it('scroll(0, 1e39) is a ValueError and the page keeps taking input', () =>
    withSession(async (session) => {
      await service.reset(session, { task_name: 'click-test', seed: 1, action_set: COORD });
      const refused = await step(session, 'scroll(0, 1e39)', 5);
      expect(refused.observation.error).toBe(
        "ValueError: scroll() argument 'delta_y' must be a number from -100000 to 100000, got 1e+39",
      );
      // Before the range check, a wheel delta of 1e39 (infinity as a float) froze input: this click timed out.
      const clicked = await step(session, 'mouse_click(5, 5)', 5);
      expect(clicked.observation.last_action_error).toBe(false);
    }));
});

/** A step that overran: the policy's timeout (truncated), never an error reply. */
function expectOverran(result: StepResult): void {
  expect(result).toMatchObject({ done: true, reward: 0 });
  expect(result.observation.error).toMatch(/^TimeoutError: the step did not finish within its deadline/);
  expect(result.metadata.browsergym_info).toMatchObject({ truncated: true, terminated: false, timed_out: true });
}

describe('no step keeps a session busy past its deadline', () => {
  it('a page that stops taking input: truncated at the deadline, free after the grace, a reset recovers on a fresh page', () =>
    withSession(async (session) => {
      await service.reset(session, { task_name: 'click-test', seed: 1, action_set: COORD });
      // Freeze the page's input the way an infinite wheel delta does, behind the binder's back.
      const page = session.pages()[0]!;
      const cdp = await page.context().newCDPSession(page);
      await cdp.send('Input.dispatchMouseEvent', { type: 'mouseWheel', x: 10, y: 10, deltaX: 0, deltaY: 1e39 });

      const started = performance.now();
      expectOverran(await step(session, 'mouse_click(5, 5)', 1));
      // The answer leaves the client time to read it: before the 1 s the client waits at most.
      expect(performance.now() - started).toBeLessThan(1_000);
      // Not busy (so the idle reaper may free it) once the grace is over; before, it stayed busy forever.
      await vi.waitFor(() => expect(session.busy).toBe(false), { timeout: OVERRUN_GRACE_MS + 3_000, interval: 50 });
      expect(page.isClosed()).toBe(true);

      // The episode ended as the policy's: later steps say to reset (before: INFRA_ERROR, dropped by the trainer).
      await expect(step(session, 'noop(0)', 5)).rejects.toBeInstanceOf(EpisodeStateError);

      const fresh = await service.reset(session, { task_name: 'click-test', seed: 1, action_set: COORD });
      expect(fresh.observation.axtree_txt).toContain("button 'Click Me!'");
      expect((await step(session, 'mouse_click(5, 5)', 5)).observation.last_action_error).toBe(false);
    }));

  it('keyboard_type of 4,000 characters stops typing at the deadline and frees the session at once', () =>
    withSession(async (session) => {
      const reset = await service.reset(session, { task_name: 'enter-text', seed: 3, action_set: COORD });
      const field = /\[(\w+)\] textbox/.exec(reset.observation.axtree_txt)?.[1];
      expect(field).toBeDefined();
      expect((await step(session, `click('${field}')`)).observation.last_action_error).toBe(false);

      expectOverran(await step(session, `keyboard_type('${'a'.repeat(4_000)}')`, 1));
      // Before: the whole text was typed (about 10 s) while the session stayed busy. Free well
      // within the grace: typing stopped, the page was not given up on.
      await vi.waitFor(() => expect(session.busy).toBe(false), { timeout: OVERRUN_GRACE_MS - 200, interval: 20 });
      const page = session.pages()[0]!;
      const typed = await page.evaluate(() => (document.querySelector('input') as HTMLInputElement).value.length);
      expect(typed).toBeGreaterThan(0);
      expect(typed).toBeLessThan(4_000);
      // The next episode starts on a fresh page: nothing the overrun left behind carries over.
      const next = await service.reset(session, { task_name: 'enter-text', seed: 3, action_set: COORD });
      expect(session.pages()[0]).not.toBe(page);
      expect(next.done).toBe(false);
    }));
});
