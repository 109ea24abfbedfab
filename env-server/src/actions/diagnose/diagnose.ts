import type { Locator } from 'playwright-core';
import { within } from '@gauntlet/proto/deadline';
import { collectFacts } from './diagnose-facts.js';
import { explain, type BidActionName, type Diagnosis } from './diagnose-explain.js';

export type { BidActionName, Diagnosis, DiagnosisKind } from './diagnose-explain.js';

/** Ancestors whose click is what the agent meant when it clicked something inside them. */
const CONTROLS =
  'a[href], button, label, summary, select, [onclick], [role=button], [role=link], [role=tab], [role=menuitem], [role=option], [role=checkbox], [role=radio]';

/** A diagnosis must never cost more than the failure it explains (a page stuck mid-navigation, say). */
const DIAGNOSE_BUDGET_MS = 1000;

/**
 * Why `action` could not act on the element with `bid`, from one in-page evaluate. Only called
 * after Playwright failed, so the happy path never pays for it. Undefined when the page gives no
 * reason (element moving, page navigating away) or cannot be asked.
 */
export async function diagnose(
  target: Locator,
  request: { bid: string; action: BidActionName; wanted?: string[] },
): Promise<Diagnosis | undefined> {
  const pointer = ['click', 'dblclick', 'hover', 'drag_and_drop', 'upload_file'].includes(request.action);
  // evaluateAll does not wait for the element (nor for a missing frame): zero matches means missing.
  const facts = target.evaluateAll(collectFacts, { scroll: pointer, controlSelector: CONTROLS }).catch(() => undefined);
  const found = await within(facts, DIAGNOSE_BUDGET_MS);
  return found && explain(found, request);
}
