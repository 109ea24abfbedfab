import { errors } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { Diagnosis } from '../diagnose/diagnose.js';
import { inputWasSent, isPlaywrightError, toActionError } from './execute-errors.js';
import { ActionError } from '../types.js';

const timeout = new errors.TimeoutError(
  'locator.click: Timeout 500ms exceeded.\nCall log:\n  \u001b[2m- waiting for locator\u001b[22m',
);
const covered: Diagnosis = {
  kind: 'covered',
  message: 'element with bid "7" is covered by div#x',
  invalidRequest: false,
  blocksForce: true,
};

describe('toActionError', () => {
  it("keeps Playwright's first line only, after the diagnosis, as a TimeoutError", () => {
    expect(toActionError(timeout, covered).display).toBe(
      'TimeoutError: element with bid "7" is covered by div#x; Timeout 500ms exceeded.',
    );
    expect(toActionError(timeout).display).toBe('TimeoutError: Timeout 500ms exceeded.');
  });

  it('turns a request the element cannot serve into a plain ValueError', () => {
    const missing: Diagnosis = {
      kind: 'missing',
      message: 'Could not find element with bid "9"',
      invalidRequest: true,
      blocksForce: true,
    };
    expect(toActionError(timeout, missing).display).toBe('ValueError: Could not find element with bid "9"');
  });

  it('reports other Playwright failures as Error, without the API call Playwright names', () => {
    expect(toActionError(new Error('keyboard.press: Unknown key: "Foo"')).display).toBe('Error: Unknown key: "Foo"');
    expect(toActionError(new Error('locator.setInputFiles: Error: Node is not an HTMLInputElement')).display).toBe(
      'Error: Node is not an HTMLInputElement',
    );
    expect(toActionError(new Error('page.goto: net::ERR_FILE_NOT_FOUND at blob:null/abc')).display).toBe(
      'Error: net::ERR_FILE_NOT_FOUND at blob:null/abc',
    );
  });

  it('passes an ActionError through', () => {
    const original = new ActionError('PermissionError', 'no');
    expect(toActionError(original)).toBe(original);
  });
});

describe('isPlaywrightError', () => {
  it('tells Playwright failures from our own bugs and from abort reasons', () => {
    expect(isPlaywrightError(timeout)).toBe(true);
    expect(isPlaywrightError(new Error('page.goto: net::ERR_NAME_NOT_RESOLVED at http://x/'))).toBe(true);
    expect(isPlaywrightError(new TypeError("Cannot read properties of undefined (reading 'x')"))).toBe(false);
    expect(isPlaywrightError(new Error('step deadline passed'))).toBe(false);
    expect(isPlaywrightError(new DOMException('signal timed out', 'TimeoutError'))).toBe(false);
  });
});

describe('inputWasSent', () => {
  const log = (...lines: string[]) =>
    new errors.TimeoutError(
      `locator.click: Timeout 500ms exceeded.\nCall log:\n${lines.map((l) => `  \u001b[2m- ${l}\u001b[22m`).join('\n')}`,
    );

  it('is true once Playwright logged that it performed the pointer action (a retry would act twice)', () => {
    expect(
      inputWasSent(log('waiting for locator', 'element is visible, enabled and stable', 'performing click action')),
    ).toBe(true);
    expect(
      inputWasSent(log('performing click action', 'click action done', 'waiting for scheduled navigations to finish')),
    ).toBe(true);
    expect(inputWasSent(log('performing move and up action'))).toBe(true);
  });

  it('is false while Playwright was still waiting for the element', () => {
    expect(inputWasSent(timeout)).toBe(false);
    expect(inputWasSent(log('waiting for locator', 'element is not visible', 'retrying click action'))).toBe(false);
  });
});
