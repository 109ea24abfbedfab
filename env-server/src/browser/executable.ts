import { existsSync } from 'node:fs';
import { chromium } from 'playwright-core';
import { TASK_ORIGIN } from './site.js';

/** Flags that make Chromium start fast and stay quiet on a closed network and in containers. */
export const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
  '--disable-extensions',
  '--disable-default-apps',
  '--mute-audio',
  // WebRTC may not send UDP itself (STUN/TURN to any host:port, ICE errors as a port scanner):
  // only through a proxy, and there is none. The only spelling headless shell reads; the
  // unforced `--webrtc-ip-handling-policy` is a chrome/ switch it ignores.
  '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
  // The task origin is answered from memory over http; treating it as secure lets it use secure-
  // context APIs and, with the context's local-network-access permission, open the Gauntlet's
  // real WebSocket to the env server on loopback (Chromium's Local Network Access checks refuse
  // loopback sockets to insecure pages).
  `--unsafely-treat-insecure-origin-as-secure=${TASK_ORIGIN}`,
];

// The real binaries first: Debian's /usr/bin wrappers are shell scripts that fork without exec,
// so the browser would outlive a kill of the process Playwright started.
const DEBIAN_BINARIES = [
  '/usr/lib/chromium/chromium-headless-shell',
  '/usr/bin/chromium-headless-shell',
  '/usr/lib/chromium/chromium',
  '/usr/bin/chromium',
];

export interface ExecutableChoice {
  path: string | undefined;
  source: 'playwright' | 'CHROMIUM_PATH' | 'debian';
}

/**
 * Playwright's own browser when installed, else `CHROMIUM_PATH`, else Debian's headless shell or
 * chromium. Throws a message telling the user how to install one when none is found.
 */
export function findChromium(env: NodeJS.ProcessEnv = process.env, headless = true): ExecutableChoice {
  const bundled = safeBundledPath();
  if (bundled && existsSync(bundled)) return { path: bundled, source: 'playwright' };
  const fromEnv = env.CHROMIUM_PATH;
  if (fromEnv) {
    if (!existsSync(fromEnv)) throw new Error(`CHROMIUM_PATH=${fromEnv} does not exist`);
    return { path: fromEnv, source: 'CHROMIUM_PATH' };
  }
  // The headless shell cannot show a window: prefer full chromium when headed.
  const candidates = headless ? DEBIAN_BINARIES : [...DEBIAN_BINARIES].reverse();
  const found = candidates.find((p) => existsSync(p));
  if (found) return { path: found, source: 'debian' };
  throw new Error(
    'No Chromium found. Install one with `apt-get install -y chromium-headless-shell` (Debian/Ubuntu), ' +
      'run `npx playwright install chromium`, or set CHROMIUM_PATH to a Chromium binary.',
  );
}

function safeBundledPath(): string | undefined {
  try {
    return chromium.executablePath();
  } catch {
    return undefined;
  }
}
