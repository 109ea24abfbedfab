import { errors } from 'playwright-core';
import { ActionError } from './types.js';
import type { Diagnosis } from './diagnose.js';

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

/** Playwright's first line ("locator.click: Timeout 500ms exceeded."), without its call log or colours. */
export function playwrightFirstLine(error: Error): string {
  // eslint-disable-next-line no-control-regex
  return (error.message.split('\n')[0] ?? '').replace(/\u001b\[\d+m/g, '').trim();
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
