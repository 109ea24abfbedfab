import { mkdtempSync, writeFileSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import type { ActionContext } from '../../src/actions/context.js';
import { installNavigationProbe } from '../../src/browser/navigation-probe.js';
import { installEffectsProbe } from '../../src/browser/effects-probe.js';
import { launchTestBrowser } from '../support/browser.js';
import { executeAction } from '../../src/actions/execute-actions.js';
import { PageDeadline } from '../../src/deadline/page-deadline.js';
import { ActionError, type Literal } from '../../src/actions/types.js';

/**
 * A session stand-in over a real browser context: tabs are real pages, the rest (chat, uploads,
 * navigation policy) is recorded in plain fields the tests read back.
 */
export class FakeContext implements ActionContext {
  readonly messages: string[] = [];
  readonly infeasible: string[] = [];
  /** The step deadline: tests end it with `deadline.abort(reason)`. */
  readonly deadline = new PageDeadline('the test step');
  /** Files upload_file may use, by the name the agent gives. */
  readonly uploads = new Map<string, string>();
  actionTimeoutMs = 500;
  readonly allowScriptActions = false;
  private active = 0;

  private constructor(
    readonly context: BrowserContext,
    private readonly allowedOrigins: string[],
  ) {}

  static async open(
    browser: Browser,
    options: { allowedOrigins?: string[]; context?: BrowserContextOptions } = {},
  ): Promise<FakeContext> {
    const context = await browser.newContext(options.context);
    await installNavigationProbe(context);
    await installEffectsProbe(context);
    await context.newPage();
    return new FakeContext(context, options.allowedOrigins ?? []);
  }

  activePage(): Page {
    const page = this.pages()[this.active];
    if (!page) throw new Error('no open tab');
    return page;
  }

  pages(): Page[] {
    return this.context.pages();
  }

  async newTab(): Promise<Page> {
    const page = await this.context.newPage();
    this.active = this.pages().indexOf(page);
    return page;
  }

  async closeActiveTab(): Promise<void> {
    await this.activePage().close();
    if (this.pages().length === 0) await this.context.newPage();
    this.active = Math.max(0, this.active - 1);
  }

  async focusTab(index: number): Promise<void> {
    this.active = index;
    await this.activePage().bringToFront();
  }

  sendMessageToUser(text: string): void {
    this.messages.push(text);
  }

  reportInfeasible(reason: string): void {
    this.infeasible.push(reason);
  }

  checkNavigation(url: string): void {
    const origin = new URL(url).origin;
    if (!this.allowedOrigins.includes(origin))
      throw new ActionError('PermissionError', `navigation to ${url} is not allowed`);
  }

  resolveUploadPath(file: string): string {
    const path = this.uploads.get(file);
    if (!path) throw new ActionError('ValueError', `file ${JSON.stringify(file)} is not available for upload`);
    return path;
  }

  /** Writes a real temp file the agent may upload as `name`. */
  addUpload(name: string, content: string): string {
    const path = join(mkdtempSync(join(tmpdir(), 'gauntlet-upload-')), name);
    writeFileSync(path, content);
    this.uploads.set(name, path);
    return path;
  }

  /** Runs one action the way a step does, with params as the binder would bind them. */
  run(name: string, params: Record<string, Literal> = {}): Promise<void> {
    return executeAction({ name, params, source: `${name}(...)` }, this);
  }

  async close(): Promise<void> {
    await this.context.close();
  }
}

/** The ActionError an action rejected with, for exact message checks; fails when it did not reject that way. */
export async function actionError(promise: Promise<unknown>): Promise<ActionError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ActionError) return error;
    throw error;
  }
  throw new Error('expected the action to fail with an ActionError');
}

/** An iframe `srcdoc` attribute value holding `html`, nestable. */
export function srcdoc(html: string): string {
  return html.replace(/&/g, '&amp;').replace(/"/g, '&quot;');
}

/**
 * The usual test file setup: one real Chromium for the file, a fresh FakeContext (own browser
 * context and page) for each test. `onEach` receives it; the returned getter gives the browser.
 */
export function useFakeContext(
  onEach: (ctx: FakeContext) => void | Promise<void>,
  options: () => { allowedOrigins?: string[] } = () => ({}),
): () => Browser {
  let browser: Browser | undefined;
  let ctx: FakeContext | undefined;
  beforeAll(async () => {
    browser = await launchTestBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });
  beforeEach(async () => {
    ctx = await FakeContext.open(browser!, options());
    await onEach(ctx);
  });
  afterEach(async () => {
    await ctx?.close();
  });
  return () => browser!;
}
