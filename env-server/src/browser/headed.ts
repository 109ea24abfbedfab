import { InfraError, ValidationError } from '@gauntlet/proto';
import { BrowserPool, type PoolOptions } from './pool.js';

/** Why a visible browser cannot open here, or undefined when it can. */
export function missingDisplay(env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (env.DISPLAY || env.WAYLAND_DISPLAY) return undefined;
  return 'a headed browser needs a display and this env server has none (DISPLAY is not set): run it on a desktop, or under a virtual one with `xvfb-run gauntlet-env serve --allow-headed …`';
}

/**
 * The visible browser of headed and recording sessions: a second Chromium, launched on the first
 * session that asks (none warm: windows open only for people), next to the headless pool every
 * other session uses. Allowed only when the operator started the server with --allow-headed.
 */
export class HeadedBrowser {
  private pool: BrowserPool | undefined;

  constructor(
    private readonly options: PoolOptions & { allowed: boolean; cdpPort: number },
    private readonly onPool: (pool: BrowserPool) => void,
  ) {}

  /** The headed pool; a typed error when the server may not, or cannot, show a window. */
  get(): BrowserPool {
    if (!this.options.allowed)
      throw new ValidationError(
        'this env server does not allow headed sessions (start it with `gauntlet-env serve --allow-headed`)',
        [{ loc: ['body', 'browser', 'headed'], msg: 'headed sessions are off', type: 'value_error', input: true }],
      );
    const why = missingDisplay();
    if (why) throw new InfraError(why);
    if (!this.pool) {
      const { allowed: _allowed, cdpPort, ...options } = this.options;
      const cdp = cdpPort > 0 ? [`--remote-debugging-port=${cdpPort}`, '--remote-debugging-address=127.0.0.1'] : [];
      this.pool = new BrowserPool({
        ...options,
        headless: false,
        warm: 0,
        extraArgs: [...(options.extraArgs ?? []), ...cdp],
      });
      this.onPool(this.pool);
    }
    return this.pool;
  }

  /** The pool when one was started (shutdown, leak checks). */
  started(): BrowserPool | undefined {
    return this.pool;
  }

  async close(): Promise<void> {
    await this.pool?.close();
  }
}
