import { errors } from 'playwright-core';
import { ActionError } from '../types.js';
import type { Diagnosis } from '../diagnose/diagnose.js';

/** Playwright prefixes its errors with the API call ("locator.click: …"); our own bugs never look like that. */
const PLAYWRIGHT_PREFIX = /^[a-zA-Z]+\.[a-zA-Z]+: /;

/** A failure Playwright reported for the page (timeout, bad key, navigation error), as opposed to a bug of ours. */
export function isPlaywrightError(error: unknown): error is Error {
  if (!(error instanceof Error)) return false;
  if (error instanceof errors.TimeoutError) return true;
  return (error.name === 'Error' || error.name === 'TargetClosedError') && PLAYWRIGHT_PREFIX.test(error.message);
}

export function isPlaywrightTimeout(error: unknown): boolean {
  return error instanceof errors.TimeoutError;
}

/**
 * True when a timed-out pointer action had already sent its input: Playwright's call log reads
 * "performing click action" once the mouse events are out, and a timeout after that (a slow
 * hit-target check in a nested frame, a starved event loop) does not undo the click. A retry
 * would click twice.
 */
export function inputWasSent(error: Error): boolean {
  return /^\s*- +performing [\w ]+ action$/m.test(withoutColours(error.message));
}

function withoutColours(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/\u001b\[\d+m/g, '');
}

/**
 * Playwright's first line as the agent may see it: without the API call it names
 * ("locator.press: "), a doubled "Error: ", the call log or colours. Library method names are
 * ours to know, not the agent's ("locator.click: Timeout 500ms exceeded." → "Timeout 500ms exceeded.").
 */
export function playwrightFirstLine(error: Error): string {
  const line = withoutColours(error.message.split('\n')[0] ?? '').trim();
  return line.replace(PLAYWRIGHT_PREFIX, '').replace(/^Error: /, '');
}

/**
 * The error the agent sees. Requests the element cannot serve (missing, wrong element, no such
 * option) are ValueErrors in BrowserGym's words; states that blocked Playwright (hidden,
 * disabled, covered) keep Playwright's first line after the diagnosis, so the type stays
 * TimeoutError when Playwright timed out.
 */
export function toActionError(error: Error, diagnosis?: Diagnosis): ActionError {
  if (error instanceof ActionError) return error;
  if (diagnosis?.invalidRequest) return new ActionError('ValueError', diagnosis.message);
  const line = playwrightFirstLine(error);
  const type = isPlaywrightTimeout(error) ? 'TimeoutError' : 'Error';
  return new ActionError(type, diagnosis ? `${diagnosis.message}; ${line}` : line);
}
