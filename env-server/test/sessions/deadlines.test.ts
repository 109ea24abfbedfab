import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DeadlineExceededError, InfraError } from '@gauntlet/proto';
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

describe('no step keeps a session busy past its deadline', () => {
  it('a page that stops taking input: 504 at the deadline, free after the grace, INFRA_ERROR until a reset recovers it', () =>
    withSession(async (session) => {
      await service.reset(session, { task_name: 'click-test', seed: 1, action_set: COORD });
      // Freeze the page's input the way an infinite wheel delta does, behind the binder's back.
      const page = session.pages()[0]!;
      const cdp = await page.context().newCDPSession(page);
      await cdp.send('Input.dispatchMouseEvent', { type: 'mouseWheel', x: 10, y: 10, deltaX: 0, deltaY: 1e39 });

      await expect(step(session, 'mouse_click(5, 5)', 1)).rejects.toBeInstanceOf(DeadlineExceededError);
      // Not busy (so the idle reaper may free it) once the grace is over; before, it stayed busy forever.
      await vi.waitFor(() => expect(session.busy).toBe(false), { timeout: OVERRUN_GRACE_MS + 3_000, interval: 50 });

      const broken = await step(session, 'noop(0)', 5).catch((error: unknown) => error);
      expect(broken).toBeInstanceOf(InfraError);
      expect((broken as Error).message).toBe(
        'Browser lost during the episode (the page stopped responding to input); reset to continue on a fresh browser',
      );

      const fresh = await service.reset(session, { task_name: 'click-test', seed: 1, action_set: COORD });
      expect(fresh.observation.axtree_txt).toContain("button 'Click Me!'");
      expect((await step(session, 'mouse_click(5, 5)', 5)).observation.last_action_error).toBe(false);
    }));

  it('keyboard_type of 8,000 characters stops typing at the deadline and frees the session at once', () =>
    withSession(async (session) => {
      const reset = await service.reset(session, { task_name: 'enter-text', seed: 3, action_set: COORD });
      const field = /\[(\w+)\] textbox/.exec(reset.observation.axtree_txt)?.[1];
      expect(field).toBeDefined();
      expect((await step(session, `click('${field}')`)).observation.last_action_error).toBe(false);

      await expect(step(session, `keyboard_type('${'a'.repeat(8_000)}')`, 1)).rejects.toBeInstanceOf(
        DeadlineExceededError,
      );
      // Before: the whole text was typed (about 20 s) while the session stayed busy. Free well
      // within the grace: typing stopped, the page was not given up on.
      await vi.waitFor(() => expect(session.busy).toBe(false), { timeout: OVERRUN_GRACE_MS - 200, interval: 20 });
      const typed = await session
        .pages()[0]!
        .evaluate(() => (document.querySelector('input') as HTMLInputElement).value.length);
      expect(typed).toBeGreaterThan(0);
      expect(typed).toBeLessThan(8_000);
      // A deadline is not a broken page: the session goes on.
      expect((await step(session, 'noop(0)')).observation.last_action_error).toBe(false);
    }));
});
