import type { CDPSession, Frame, Page } from 'playwright-core';

const sessions = new WeakMap<Page | Frame, Promise<CDPSession>>();

/**
 * One CDP session per page (or out-of-process frame), reused across observations: opening one
 * costs a round trip to the browser and leaves a target attachment behind. A session that closes
 * (page closed, frame swapped process) is forgotten so the next call opens a fresh one.
 */
export function cdpSession(target: Page | Frame): Promise<CDPSession> {
  const cached = sessions.get(target);
  if (cached) return cached;
  const page = 'mainFrame' in target ? target : target.page();
  const opening = page.context().newCDPSession(target);
  sessions.set(target, opening);
  opening.then(
    (session) => session.once('close', () => sessions.get(target) === opening && sessions.delete(target)),
    () => sessions.delete(target),
  );
  return opening;
}
