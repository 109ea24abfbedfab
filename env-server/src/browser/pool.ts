import { EventEmitter } from 'node:events';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { CHROMIUM_FLAGS, findChromium } from './executable.js';
import { EgressProxy } from './egress-proxy.js';
import { installFileFrameGuard } from './file-frames.js';
import { installNavigationGuard } from './navigation-guard.js';
import { installNavigationProbe } from './navigation-probe.js';
import { installEffectsProbe } from './effects-probe.js';
import { childPids } from './process.js';
import { ResponseCache } from './response-cache.js';
import { installSiteRoutes } from './routes.js';
import type { OriginPolicy } from './origin-policy.js';
import { registeredSocketOrigins } from './socket-routes.js';
import type { SiteMount, TaskDisplay, TaskSite } from './site.js';
import { within } from '@gauntlet/proto/deadline';

/** A live page answers an evaluate in about a millisecond; a crashed one fails at once. */
const PROBE_TIMEOUT_MS = 2_000;

export interface PoolOptions {
  headless: boolean;
  /** The display of warm contexts (and of sessions whose task asks for none). */
  display: TaskDisplay;
  /** Contexts kept ready so a new session costs one hand-over, not a context launch. */
  warm: number;
  pageTimeoutMs: number;
  site: TaskSite;
  /** Folders served on the task origin (real MiniWoB++ from disk). */
  mounts?: readonly SiteMount[];
  /** Static origins whose GET responses are kept in memory for every context (real MiniWoB++ behind a URL). */
  cachedOrigins?: readonly string[];
  origins: OriginPolicy;
  executablePath?: string;
  extraArgs?: string[];
}

/** A browser context + first page handed to one session; `generation` names the browser it lives in. */
export interface ContextLease {
  context: BrowserContext;
  page: Page;
  generation: number;
  /** Viewport and scale the context was made with (fixed for its life). */
  display: TaskDisplay;
}

export function sameDisplay(a: TaskDisplay, b: TaskDisplay): boolean {
  return a.width === b.width && a.height === b.height && a.deviceScaleFactor === b.deviceScaleFactor;
}

/**
 * One Chromium process hosts every session's context. When the process dies, the pool emits
 * `browser-lost` (sessions on that generation turn into infra errors) and relaunches on the next
 * acquire, so the server never needs a restart. A warm page whose renderer crashes is thrown
 * away and replaced, never handed to a session.
 */
export class BrowserPool extends EventEmitter<{
  'browser-lost': [generation: number];
  restart: [];
  'warm-discarded': [];
}> {
  private browser: Browser | undefined;
  private launching: Promise<Browser> | undefined;
  private generation = 0;
  private warm: ContextLease[] = [];
  private readonly crashed = new WeakSet<Page>();
  private refilling: Promise<void> | undefined;
  private readonly cache: ResponseCache;
  /** Every context's network traffic goes through it, so each hop meets the origin policy. */
  private readonly egress = new EgressProxy();
  private closed = false;
  private pid: number | undefined;
  restarts = 0;
  /** Warm pages thrown away because their renderer crashed. */
  discardedWarm = 0;

  constructor(private readonly options: PoolOptions) {
    super();
    this.cache = new ResponseCache(options.cachedOrigins ?? []);
  }

  get currentGeneration(): number {
    return this.generation;
  }

  /** Launches the browser and fills the warm pool. */
  async start(): Promise<void> {
    await this.ensureBrowser();
    await this.refill();
  }

  /**
   * A context for one session: a warm one with the pool's display, or a new one when `display`
   * differs (a device scale factor is fixed when a context is made).
   */
  async acquire(display: TaskDisplay = this.options.display): Promise<ContextLease> {
    if (this.closed) throw new Error('browser pool is closed');
    if (!sameDisplay(display, this.options.display)) return this.createLease(display);
    for (let ready = this.takeWarm(); ready; ready = this.takeWarm()) {
      // The crash event of a renderer killed a moment ago may still be on its way: one round trip
      // to the page proves it alive before a session gets it.
      if (await this.answers(ready.page)) {
        void this.refillInBackground();
        return ready;
      }
      this.crashed.add(ready.page);
      this.discard(ready);
    }
    const lease = await this.createLease();
    void this.refillInBackground();
    return lease;
  }

  /** Closes a session's context; failures of an already-dead browser are expected and ignored. */
  async release(lease: ContextLease): Promise<void> {
    await lease.context.close().catch(() => undefined);
  }

  /** Browser contexts currently open (warm ones included); a leak test watches this. */
  openContexts(): number {
    return this.browser?.contexts().length ?? 0;
  }

  isAlive(generation: number): boolean {
    return generation === this.generation && this.browser?.isConnected() === true;
  }

  async close(): Promise<void> {
    this.closed = true;
    const warm = this.warm.splice(0);
    await Promise.all(warm.map((lease) => lease.context.close().catch(() => undefined)));
    const browser = this.browser;
    this.browser = undefined;
    await browser?.close().catch(() => undefined);
    await this.egress.close();
  }

  /** The browser's OS process id, when it could be told (tests kill it to simulate a crash). */
  browserPid(): number | undefined {
    return this.pid;
  }

  private takeWarm(): ContextLease | undefined {
    while (this.warm.length > 0) {
      const lease = this.warm.shift()!;
      if (this.isAlive(lease.generation) && !lease.page.isClosed() && !this.crashed.has(lease.page)) return lease;
      void this.release(lease);
    }
    return undefined;
  }

  /** A renderer died under a page: a warm one is discarded and replaced; a leased one is its session's business. */
  private onCrash(lease: ContextLease): void {
    this.crashed.add(lease.page);
    const index = this.warm.indexOf(lease);
    if (index === -1) return;
    this.warm.splice(index, 1);
    this.discard(lease);
  }

  private discard(lease: ContextLease): void {
    this.discardedWarm += 1;
    this.emit('warm-discarded');
    void this.release(lease);
    if (!this.closed) void this.refillInBackground();
  }

  private async answers(page: Page): Promise<boolean> {
    const answer = page.evaluate(() => true).catch(() => false);
    return (await within(answer, PROBE_TIMEOUT_MS)) === true;
  }

  private async refillInBackground(): Promise<void> {
    try {
      await this.refill();
    } catch {
      // A failed refill only costs the next session a cold start; acquire() reports real failures.
    }
  }

  private refill(): Promise<void> {
    if (this.refilling) return this.refilling;
    const run = async () => {
      while (!this.closed && this.warm.length < this.options.warm) this.warm.push(await this.createLease());
    };
    // Assigned before the body can finish, so a refill that ends at once never leaves a stale promise behind.
    const refilling = run().finally(() => {
      if (this.refilling === refilling) this.refilling = undefined;
    });
    this.refilling = refilling;
    return refilling;
  }

  private async createLease(display: TaskDisplay = this.options.display): Promise<ContextLease> {
    const browser = await this.ensureBrowser();
    const generation = this.generation;
    let context: BrowserContext | undefined;
    const egress = await this.egress.register({
      policy: this.options.origins,
      registeredSockets: () => (context ? registeredSocketOrigins(context) : new Set()),
    });
    try {
      context = await browser.newContext({
        viewport: { width: display.width, height: display.height },
        deviceScaleFactor: display.deviceScaleFactor,
        serviceWorkers: 'block',
        acceptDownloads: false,
        proxy: { server: egress.server },
      });
    } catch (error) {
      egress.release();
      throw error;
    }
    context.once('close', egress.release);
    context.setDefaultTimeout(this.options.pageTimeoutMs);
    await installSiteRoutes(context, this.options.site, this.options.origins, this.options.mounts, this.cache);
    installNavigationGuard(context, this.options.origins);
    installFileFrameGuard(context);
    await installNavigationProbe(context);
    await installEffectsProbe(context);
    const page = await context.newPage();
    const lease = { context, page, generation, display };
    page.once('crash', () => this.onCrash(lease));
    return lease;
  }

  private async ensureBrowser(): Promise<Browser> {
    if (this.browser?.isConnected()) return this.browser;
    this.launching ??= this.launch().finally(() => {
      this.launching = undefined;
    });
    return this.launching;
  }

  private async launch(): Promise<Browser> {
    const wasRunning = this.generation > 0;
    const executablePath = this.options.executablePath ?? findChromium(process.env, this.options.headless).path;
    // Playwright does not expose the browser's pid; the new child process of ours is it.
    const before = childPids();
    const browser = await chromium.launch({
      executablePath,
      args: [...CHROMIUM_FLAGS, ...(this.options.extraArgs ?? [])],
      headless: this.options.headless,
    });
    this.pid = [...childPids()].find((pid) => !before.has(pid));
    this.generation += 1;
    const generation = this.generation;
    browser.on('disconnected', () => this.onDisconnected(generation));
    this.browser = browser;
    if (wasRunning) {
      this.restarts += 1;
      this.emit('restart');
    }
    return browser;
  }

  private onDisconnected(generation: number): void {
    if (generation !== this.generation) return;
    this.browser = undefined;
    this.warm = this.warm.filter((lease) => lease.generation !== generation);
    if (!this.closed) this.emit('browser-lost', generation);
  }
}
