import type { BrowserContext, Request } from 'playwright-core';
import { hopRefusal, shown } from './navigation-policy.js';
import type { OriginPolicy } from './origin-policy.js';

/** Refused navigations of each context since the running action began, first first. */
const refused = new WeakMap<BrowserContext, string[]>();
/** Frame checks still running in each context (file-frames.ts): an action ends after them. */
const checks = new WeakMap<BrowserContext, Set<Promise<void>>>();
/** Who waits for the next refusal in each context (nextNavigationRefusal). */
const waiting = new WeakMap<BrowserContext, Set<(refusal: string) => void>>();

/**
 * Records every navigation of `context` (any frame, any tab, every redirect hop) that the origin
 * policy refuses. Routes and the egress proxy stop such a hop; this tells the action that caused
 * it, so the agent gets an error instead of a page that silently did not move.
 */
export function installNavigationGuard(context: BrowserContext, policy: OriginPolicy): void {
  refused.set(context, []);
  waiting.set(context, new Set());
  context.on('request', (request) => {
    if (!request.isNavigationRequest()) return;
    const refusal = hopRefusal(request.url(), policy);
    if (refusal) recordNavigationRefusal(context, withOrigin(refusal, request));
  });
}

/** Records a navigation refused by other means than a request (a file: frame). */
export function recordNavigationRefusal(context: BrowserContext, refusal: string): void {
  refused.get(context)?.push(refusal);
  for (const wake of waiting.get(context) ?? []) wake(refusal);
}

/** Counts `check` among the work an action waits for before it reads the refusals. */
export function trackFrameCheck(context: BrowserContext, check: Promise<void>): void {
  let running = checks.get(context);
  if (!running) checks.set(context, (running = new Set()));
  const tracked = check.finally(() => running.delete(tracked));
  running.add(tracked);
}

/** Resolves when the frame checks running now have ended. */
export async function frameChecksDone(context: BrowserContext): Promise<void> {
  await Promise.all([...(checks.get(context) ?? [])]);
}

/**
 * Resolves at the next refused navigation of `context` (never, without a guard). An action need
 * not wait out its own timeout for a page that will not load: a document that navigates while
 * it is parsed never fires `load` once that navigation is cancelled.
 */
export function nextNavigationRefusal(context: BrowserContext): { refused: Promise<string>; stop: () => void } {
  const listeners = waiting.get(context);
  let wake: (refusal: string) => void = () => undefined;
  const promise = new Promise<string>((resolve) => (wake = resolve));
  listeners?.add(wake);
  return { refused: promise, stop: () => listeners?.delete(wake) };
}

/** Forgets what was refused before an action starts: that was not its doing. */
export function clearNavigationRefusals(context: BrowserContext): void {
  refused.get(context)?.splice(0);
}

/** The first navigation refused since the last clear, if any (and clears). */
export function takeNavigationRefusal(context: BrowserContext): string | undefined {
  return refused.get(context)?.splice(0)[0];
}

function withOrigin(refusal: string, request: Request): string {
  const from = request.redirectedFrom();
  return from ? `${refusal} (redirected from ${shown(from.url())})` : refusal;
}
