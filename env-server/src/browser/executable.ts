import { findChromium as findAnyChromium, type ChromiumChoice } from '@gauntlet/proto/chromium';
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

/**
 * Playwright's own browser when installed, else `CHROMIUM_PATH`, else Debian's headless shell or
 * chromium (proto's one lookup, with Playwright asked first). Throws NoChromiumError saying how to
 * install one when none is found.
 */
export function findChromium(env: NodeJS.ProcessEnv = process.env, headless = true): ChromiumChoice {
  return findAnyChromium({ env, headless, bundled: () => chromium.executablePath() });
}
