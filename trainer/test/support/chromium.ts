import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { findChromium } from '@gauntlet/proto/chromium';

/** A headless Chromium to run pages' scripts in (CHROMIUM_PATH, else the Debian packages' paths). */
export const CHROMIUM = findChromium({
  missing: 'no Chromium binary (set CHROMIUM_PATH or install chromium-headless-shell)',
}).path;

/** The DOM a page's scripts built, as Chromium prints it once they ran. */
export async function renderedDom(url: string): Promise<string> {
  const { stdout } = await promisify(execFile)(
    CHROMIUM,
    ['--headless', '--no-sandbox', '--disable-gpu', '--virtual-time-budget=5000', '--dump-dom', url],
    { timeout: 60_000 },
  );
  return stdout;
}
