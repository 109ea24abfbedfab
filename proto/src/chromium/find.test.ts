import { describe, expect, it } from 'vitest';
import { findChromium, NO_CHROMIUM, NoChromiumError } from './find.js';

const HEADLESS_SHELL = '/usr/lib/chromium/chromium-headless-shell';
const FULL = '/usr/lib/chromium/chromium';

/** A file system holding exactly these paths. */
const only =
  (...paths: string[]) =>
  (path: string) =>
    paths.includes(path);

describe('findChromium', () => {
  it("prefers Playwright's browser, then CHROMIUM_PATH, then Debian's", () => {
    const exists = only('/pw/chrome', '/opt/chromium', HEADLESS_SHELL);
    const env = { CHROMIUM_PATH: '/opt/chromium' };
    expect(findChromium({ env, exists, bundled: () => '/pw/chrome' })).toEqual({
      path: '/pw/chrome',
      source: 'playwright',
    });
    expect(findChromium({ env, exists, bundled: () => '/pw/missing' })).toEqual({
      path: '/opt/chromium',
      source: 'CHROMIUM_PATH',
    });
    expect(findChromium({ env: {}, exists })).toEqual({ path: HEADLESS_SHELL, source: 'debian' });
  });

  it('treats a Playwright lookup that throws as no bundled browser', () => {
    const bundled = () => {
      throw new Error('no browsers installed');
    };
    expect(findChromium({ env: {}, exists: only(FULL), bundled })).toEqual({ path: FULL, source: 'debian' });
  });

  it('prefers the headless shell when headless and full chromium when headed', () => {
    const exists = only(HEADLESS_SHELL, FULL);
    expect(findChromium({ env: {}, exists }).path).toBe(HEADLESS_SHELL);
    expect(findChromium({ env: {}, exists, headless: false }).path).toBe(FULL);
  });

  it('refuses a CHROMIUM_PATH that does not exist instead of picking another browser', () => {
    expect(() => findChromium({ env: { CHROMIUM_PATH: '/nope' }, exists: only(HEADLESS_SHELL) })).toThrow(
      new NoChromiumError('CHROMIUM_PATH=/nope does not exist'),
    );
  });

  it('says how to install one when none is found, in the caller’s words when given', () => {
    const none = only();
    expect(() => findChromium({ env: {}, exists: none })).toThrow(new NoChromiumError(NO_CHROMIUM));
    expect(() => findChromium({ env: {}, exists: none, missing: 'no PNG today' })).toThrow(/^no PNG today$/);
    const error = thrownBy(() => findChromium({ env: {}, exists: none }));
    expect([error instanceof NoChromiumError, (error as NoChromiumError).code]).toEqual([true, 'INFRA_ERROR']);
  });
});

function thrownBy(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}
