import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { chromium, type Page } from 'playwright-core';
import { expect } from 'vitest';
import { main } from '../../agent/src/cli/main.js';
import { startLocalEnv, type LocalEnv } from '../../agent/src/env/local-env.js';
import type { Demo } from '../../agent/src/record/demo-files.js';
import { Person } from './person.js';
import { startXvfb, type VirtualDisplay } from './xvfb.js';

// What a test of `gauntlet-agent record` needs: a virtual display (Xvfb, since CI has none), an
// env server allowed to open headed windows with their DevTools port open, and Playwright as the
// person — connected to that headed Chromium over CDP, moving the real mouse and keyboard.

/** A display and an env server that opens its headed browsers there, with CDP on `cdpPort`. */
export interface HeadedEnv {
  env: LocalEnv;
  cdpPort: number;
  stop(): Promise<void>;
}

/** `extraArgs`: more `gauntlet-env serve` flags, e.g. the --allow-origin of a site the test serves. */
export async function startHeadedEnv(extraArgs: string[] = []): Promise<HeadedEnv> {
  const display: VirtualDisplay = await startXvfb();
  const cdpPort = await freePort();
  const env = await startLocalEnv({
    extraArgs: ['--allow-headed', '--headed-cdp-port', String(cdpPort), ...extraArgs],
    env: { ...process.env, DISPLAY: display.display },
  }).catch(async (error: unknown) => {
    await display.stop();
    throw error;
  });
  return {
    env,
    cdpPort,
    async stop() {
      await env.stop();
      await display.stop();
    },
  };
}

/** What the recording printed so far, and a wait for a line that matches. */
export class Lines {
  readonly all: string[] = [];
  private readonly waiting: { pattern: RegExp; count: number; resolve: () => void }[] = [];
  push(line: string): void {
    this.all.push(line);
    for (const w of [...this.waiting])
      if (this.count(w.pattern) >= w.count) {
        this.waiting.splice(this.waiting.indexOf(w), 1);
        w.resolve();
      }
  }
  count(pattern: RegExp): number {
    return this.all.filter((l) => pattern.test(l)).length;
  }
  /** Resolves once `count` lines match (recorded actions print `#<n> <action> → reward …`). */
  until(pattern: RegExp, count = 1, withinMs = 90_000): Promise<void> {
    if (this.count(pattern) >= count) return Promise.resolve();
    return new Promise((resolve, reject) => {
      // A line that never comes fails with what did come, not as the test's silent timeout.
      const timer = setTimeout(() => {
        this.waiting.splice(this.waiting.indexOf(entry), 1);
        reject(
          new Error(`no ${count} line(s) matching ${pattern} within ${withinMs} ms; printed:\n${this.all.join('\n')}`),
        );
      }, withinMs);
      const entry = {
        pattern,
        count,
        resolve: () => {
          clearTimeout(timer);
          resolve();
        },
      };
      this.waiting.push(entry);
    });
  }
}

/** A recorded action's progress line. */
export const ACTION = /#\d+ /;

export type Act = (person: Person, page: Page, lines: Lines, stop: AbortController) => Promise<void>;

/**
 * Runs `gauntlet-agent record` on `task`/`seed` (or on `web`: `--url …` and `--goal …`) into
 * `out` with `act` as the person; checks its exit code (0 when the episode ended it, 130 when
 * `act` stopped it as Ctrl-C would) and returns the demo it wrote.
 */
export async function demonstrate(
  headed: HeadedEnv,
  options: ({ task: string; seed: number } | { web: string[] }) & { out: string; url?: string },
  act: Act,
): Promise<{ demo: Demo; lines: Lines }> {
  const { out } = options;
  const target = 'web' in options ? options.web : ['--task', options.task, '--seed', String(options.seed)];
  const lines = new Lines();
  const io = { out: (l: string) => lines.push(l), err: (l: string) => lines.push(l) };
  const stop = new AbortController();
  const url = options.url ?? headed.env.url;
  const recording = main(['record', ...target, '--env', url, '--out', out], {
    io,
    signal: stop.signal,
  });
  const failed = recording.then((code) => {
    throw new Error(`record exited ${code} before recording:\n${lines.all.join('\n')}`);
  });
  await Promise.race([lines.until(/Ctrl-C stops the recording/), failed]);
  const cdp = await chromium.connectOverCDP(`http://127.0.0.1:${headed.cdpPort}`);
  try {
    const page = cdp
      .contexts()
      .flatMap((c) => c.pages())
      .find((p) => p.url().startsWith('http'));
    if (!page) throw new Error('no task page in the headed browser');
    await act(new Person(page), page, lines, stop);
  } catch (error) {
    stop.abort();
    await recording;
    throw error;
  } finally {
    await cdp.close();
  }
  expect(await recording, lines.all.join('\n')).toBe(stop.signal.aborted ? 130 : 0);
  const demo = JSON.parse(readFileSync(join(out, 'demo.json'), 'utf8')) as Demo;
  return { demo, lines };
}

/** The person's way through click-button: one click on the button the goal names. */
export const clickNamedButton: Act = async (person) => {
  const [label] = await person.quoted();
  await person.click(person.page.getByRole('button', { name: label!, exact: true }));
};

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
