import { existsSync } from 'node:fs';
import { GauntletError } from '../errors.js';

/** No Chromium binary could be found (or CHROMIUM_PATH names a missing file); the message says what to install. */
export class NoChromiumError extends GauntletError {
  constructor(message: string) {
    super('INFRA_ERROR', message);
  }
}

// The real binaries first: Debian's /usr/bin wrappers are shell scripts that fork without exec,
// so a browser started through one would outlive a kill of the process that started it.
export const DEBIAN_CHROMIUM = [
  '/usr/lib/chromium/chromium-headless-shell',
  '/usr/bin/chromium-headless-shell',
  '/usr/lib/chromium/chromium',
  '/usr/bin/chromium',
] as const;

export interface ChromiumChoice {
  path: string;
  source: 'playwright' | 'CHROMIUM_PATH' | 'debian';
}

export interface ChromiumLookup {
  env?: NodeJS.ProcessEnv;
  /** The headless shell cannot show a window: false prefers full chromium. Default true. */
  headless?: boolean;
  /**
   * Playwright's own browser, asked first (`() => chromium.executablePath()`): a caller with
   * Playwright passes it, so proto needs no browser library. Throwing counts as absent.
   */
  bundled?: () => string | undefined;
  /** The message when nothing is found (default: how to install one). */
  missing?: string;
  exists?: (path: string) => boolean;
}

export const NO_CHROMIUM =
  'No Chromium found. Install one with `apt-get install -y chromium-headless-shell` (Debian/Ubuntu), ' +
  'run `npx playwright install chromium`, or set CHROMIUM_PATH to a Chromium binary.';

/**
 * The one Chromium lookup: Playwright's browser when the caller has one installed, else
 * `CHROMIUM_PATH`, else Debian's headless shell or chromium. Throws NoChromiumError when none is
 * found, or when CHROMIUM_PATH is set to a path that does not exist (a typo is not silently
 * replaced by another browser).
 */
export function findChromium(lookup: ChromiumLookup = {}): ChromiumChoice {
  const { env = process.env, headless = true, exists = existsSync } = lookup;
  const bundled = safely(lookup.bundled);
  if (bundled && exists(bundled)) return { path: bundled, source: 'playwright' };
  const fromEnv = env['CHROMIUM_PATH'];
  if (fromEnv) {
    if (!exists(fromEnv)) throw new NoChromiumError(`CHROMIUM_PATH=${fromEnv} does not exist`);
    return { path: fromEnv, source: 'CHROMIUM_PATH' };
  }
  const candidates = headless ? DEBIAN_CHROMIUM : [...DEBIAN_CHROMIUM].reverse();
  const found = candidates.find((path) => exists(path));
  if (found) return { path: found, source: 'debian' };
  throw new NoChromiumError(lookup.missing ?? NO_CHROMIUM);
}

function safely(bundled: (() => string | undefined) | undefined): string | undefined {
  try {
    return bundled?.();
  } catch {
    return undefined;
  }
}
