import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { promisify } from 'node:util';

/** A headless Chromium to run pages' scripts in (CHROMIUM_PATH, else the Debian packages' paths). */
export const CHROMIUM = [
  process.env['CHROMIUM_PATH'],
  '/usr/bin/chromium-headless-shell',
  '/usr/lib/chromium/chromium-headless-shell',
  '/usr/bin/chromium',
].find((path): path is string => !!path && existsSync(path));

/** The DOM a page's scripts built, as Chromium prints it once they ran. */
export async function renderedDom(url: string): Promise<string> {
  if (!CHROMIUM) throw new Error('no Chromium binary (set CHROMIUM_PATH or install chromium-headless-shell)');
  const { stdout } = await promisify(execFile)(
    CHROMIUM,
    ['--headless', '--no-sandbox', '--disable-gpu', '--virtual-time-budget=5000', '--dump-dom', url],
    { timeout: 60_000 },
  );
  return stdout;
}
