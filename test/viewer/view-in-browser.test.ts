import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../agent/src/cli/main.js';
import { startLocalEnv, type LocalEnv } from '../../agent/src/env/local-env.js';
import { findChromium } from '../../env-server/src/browser/executable.js';
import { readRun } from '../../agent/test/support/agent.js';
import { consumedGroup, trajectory } from '../../agent/test/support/trajectories.js';

// The whole path a person takes: a real env server and Chromium play the oracle with
// --screenshots, `gauntlet-agent view` serves the run, and a second real Chromium opens the page
// and steps through it with the keyboard. It lives outside agent/ because the agent may not
// import Playwright (scripts/check-boundaries.mjs); the test is the viewer's user, not its code.
const dir = mkdtempSync(join(tmpdir(), 'agent-view-browser-'));
const out = join(dir, 'run');
const io = (lines: string[]) => ({ out: (l: string) => lines.push(l), err: (l: string) => lines.push(l) });

let env: LocalEnv;
let browser: Browser;
const stopView = new AbortController();
let viewing: Promise<number> | undefined;
beforeAll(async () => {
  env = await startLocalEnv();
  browser = await chromium.launch({
    executablePath: findChromium().path,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
  });
}, 120_000);
afterAll(async () => {
  stopView.abort();
  await viewing;
  await browser?.close();
  await env?.stop();
});

/** What the page shows now: the step it is on, and the parts the test checks. */
async function shown(page: Page) {
  return page.evaluate(() => {
    const img = document.getElementById('shot') as HTMLImageElement;
    const frame = img.getBoundingClientRect();
    return {
      episode: Number(document.body.dataset['episode']),
      step: Number(document.body.dataset['step']),
      action: document.getElementById('action')!.textContent,
      reward: document.getElementById('reward')!.textContent,
      src: img.getAttribute('src'),
      loaded: img.complete && img.naturalWidth > 0,
      diff: [...document.querySelectorAll('#diff div')].map((d) => ({ cls: d.className, text: d.textContent ?? '' })),
      // How much the picture is enlarged, and whether all of it is in view.
      zoom: frame.width / img.naturalWidth,
      whole: img.parentElement!.parentElement!.getBoundingClientRect().width >= frame.width - 1,
      // Each label against its box and the frame, in page pixels: outside the box, inside the frame.
      labels: [...document.querySelectorAll('.mark')].map((m) => {
        const [box, label] = [m.getBoundingClientRect(), m.querySelector('span')!.getBoundingClientRect()];
        const shown = img.parentElement!.parentElement!.getBoundingClientRect();
        return {
          outsideBox: label.bottom <= box.top || label.top >= box.bottom,
          inFrame:
            label.top >= shown.top &&
            label.bottom <= shown.bottom &&
            box.top >= shown.top &&
            box.bottom <= shown.bottom,
        };
      }),
      // Each mark relative to the picture, in the screenshot's own pixels.
      marks: [...document.querySelectorAll('.mark')].map((m) => {
        const r = m.getBoundingClientRect();
        const scale = img.naturalWidth / frame.width;
        return {
          label: m.textContent,
          x: (r.left - frame.left) * scale,
          y: (r.top - frame.top) * scale,
          w: r.width * scale,
          h: r.height * scale,
        };
      }),
    };
  });
}

describe('gauntlet-agent view in a real browser', () => {
  it('steps through an oracle run with the keyboard: screenshot, action box and AXTree diff on every step', async () => {
    const lines: string[] = [];
    const tasks = ['--task', 'click-button,gauntlet:click_sequence', '--seeds', '0-1'];
    const run = await main(['run', '--env', env.url, '--mode', 'oracle', ...tasks, '--screenshots', '--out', out], {
      io: io(lines),
      env: {},
      signal: new AbortController().signal,
    });
    expect(run, lines.join('\n')).toBe(0);
    const { episodes } = readRun(out);
    expect(episodes.map((e) => e.outcome)).toEqual(['success', 'success', 'success', 'success']);

    const viewLines: string[] = [];
    viewing = main(['view', out, '--port', '0'], { io: io(viewLines), env: {}, signal: stopView.signal });
    await expect.poll(() => viewLines.length, { timeout: 10_000 }).toBeGreaterThan(0);
    const url = /^http:\/\/127\.0\.0\.1:\d+\//.exec(viewLines[0]!)![0];

    const page = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
    const problems: string[] = [];
    page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
    page.on('pageerror', (e) => problems.push(e.message));
    // A picture superseded by a quicker key press is aborted by the browser: not a problem.
    page.on(
      'requestfailed',
      (r) => r.failure()?.errorText !== 'net::ERR_ABORTED' && problems.push(`failed: ${r.url()}`),
    );
    page.on('response', (r) => r.status() >= 400 && problems.push(`${r.status()}: ${r.url()}`));
    page.on('request', (r) => !r.url().startsWith(url) && problems.push(`outside request: ${r.url()}`));
    await page.goto(url);
    await expect.poll(() => page.locator('#episodes li').count()).toBe(4);
    expect(await page.locator('#episodes li').allTextContents()).toEqual(
      episodes.map((e) => `${e.task} · seed ${e.seed}success · reward 1 · ${e.turns.length} steps`),
    );

    for (let e = 0; e < episodes.length; e++) {
      if (e > 0) await page.keyboard.press('ArrowDown');
      const turns = episodes[e]!.turns;
      for (let s = 0; s < turns.length; s++) {
        if (s > 0) await page.keyboard.press('ArrowRight');
        await page.waitForFunction(
          ([ep, st]) => {
            const img = document.getElementById('shot') as HTMLImageElement;
            const ready = document.body.dataset['episode'] === ep && document.body.dataset['step'] === st;
            return ready && img.complete && img.naturalWidth > 0 && document.querySelectorAll('.mark').length > 0;
          },
          [String(e), String(s)],
        );
        const view = await shown(page);
        const turn = turns[s]!;
        const where = `episode ${e} step ${s}`;
        expect(view.loaded, where).toBe(true);
        expect(view.src, where).toBe(`/files/${turn.screenshot}`);
        expect(view.action, where).toBe(turn.action);
        expect(view.reward, where).toMatch(new RegExp(`^${turn.reward}`));
        // The box drawn is the one the env gave the clicked bid, where the screenshot has it.
        expect(
          view.marks.map((m) => m.label),
          where,
        ).toEqual(turn.marks!.map((m) => (m.kind === 'box' ? `${m.action} '${m.bid}'` : m.action)));
        view.marks.forEach((drawn, k) => {
          const mark = turn.marks![k]!;
          if (mark.kind !== 'box') return;
          for (const [got, want] of [
            [drawn.x, mark.bbox[0]],
            [drawn.y, mark.bbox[1]],
            [drawn.w, mark.bbox[2]],
            [drawn.h, mark.bbox[3]],
          ])
            expect(Math.abs(got! - want!), where).toBeLessThan(2);
        });
        // A MiniWoB page is a small frame in a corner: shown enlarged and cut to the task; a
        // Gauntlet page fills the viewport and is shown whole. Labels sit outside their box.
        if (turn.observation.url.includes('/miniwob/')) {
          expect(view.zoom, where).toBeGreaterThan(2);
          expect(view.whole, where).toBe(false);
        } else expect([view.zoom < 1, view.whole], where).toEqual([true, true]);
        expect(view.labels, where).toEqual(view.marks.map(() => ({ outsideBox: true, inFrame: true })));
        if (s === 0) expect(view.diff.filter((l) => l.cls === 'add').length, where).toBeGreaterThan(3);
        else
          expect(
            view.diff.some((l) => l.cls === 'add' || l.cls === 'del'),
            where,
          ).toBe(true);
      }
    }
    // The Gauntlet's second step shows the progress line the first click changed. The episode's
    // fetch is held until both keys are down: a step key pressed while an episode loads applies
    // to the episode it opens, never to the one being left.
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    await page.route('**/api/episodes/*', async (route) => {
      await held;
      await route.continue();
    });
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('ArrowRight');
    release();
    await page.waitForFunction(() => document.body.dataset['episode'] === '2' && document.body.dataset['step'] === '1');
    const diff = (await shown(page)).diff;
    expect(diff).toContainEqual({ cls: 'del', text: expect.stringMatching(/^- .*Progress: 0 of 3/) });
    expect(diff).toContainEqual({ cls: 'add', text: expect.stringMatching(/^\+ .*Progress: 1 of 3/) });
    await page.keyboard.press('ArrowLeft');
    await page.waitForFunction(() => document.body.dataset['step'] === '0');
    expect(await page.locator('#after').isVisible()).toBe(false);
    // On the last step, a link to the page after the last action.
    for (let k = 0; k < 3; k++) await page.keyboard.press('ArrowRight');
    await page.waitForFunction(() => document.body.dataset['step'] === '3');
    expect(await page.locator('#after').getAttribute('href')).toBe(`/files/${episodes[2]!.final!.screenshot}`);
    const after = await page.request.get(new URL(episodes[2]!.final!.screenshot!, `${url}files/`).href);
    expect([after.status(), after.headers()['content-type']]).toEqual([200, 'image/png']);
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowLeft');

    await page.waitForFunction(
      () => document.body.dataset['step'] === '1' && (document.getElementById('shot') as HTMLImageElement).complete,
    );
    const picture = join(dir, 'view-page.png');
    await page.screenshot({ path: picture });
    console.log(`viewer screenshot: ${picture}`);
    expect(problems).toEqual([]);
  }, 180_000);

  it("shows a trainer's kept trajectories: each token coloured by its logprob, env tokens masked, version and staleness per turn", async () => {
    const file = join(dir, 'trajectories.jsonl');
    // A group the trainer took at v3, its turns played at v2 and v3; then a bare Trajectory line.
    const kept = consumedGroup('g7', 3, [2, 3]);
    writeFileSync(file, `${JSON.stringify(kept)}\n${JSON.stringify(trajectory('t', 0, [5]))}\n`);
    const stop = new AbortController();
    const lines: string[] = [];
    const serving = main(['view', file, '--port', '0'], { io: io(lines), env: {}, signal: stop.signal });
    try {
      await expect.poll(() => lines.length, { timeout: 10_000 }).toBeGreaterThan(0);
      const url = /^http:\/\/127\.0\.0\.1:\d+\//.exec(lines[0]!)![0];
      const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
      const problems: string[] = [];
      page.on('pageerror', (e) => problems.push(e.message));
      page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
      await page.goto(url);
      await page.waitForFunction(() => document.body.dataset['step'] === '0');
      expect(await page.locator('#episodes li').count()).toBe(3);
      const tokens = () =>
        page.locator('#tokens .tok').evaluateAll((spans) =>
          spans.map((s) => ({
            text: s.textContent,
            env: s.classList.contains('env'),
            logprob: (s as HTMLElement).dataset['logprob'] ?? null,
            background: getComputedStyle(s).backgroundColor,
          })),
        );
      const turn = kept.group.trajectories[0]!.turns[0]!;
      const first = await tokens();
      expect(first.map((t) => [t.text, t.env, t.logprob])).toEqual([
        ...turn.completion_ids.map((id, k) => [kept.token_texts![id]!, false, String(turn.logprobs[k])]),
        ...turn.env_ids.map((id) => [kept.token_texts![id]!, true, null]),
      ]);
      // Likely, unlikely and very unlikely tokens get three different colours; env tokens one grey.
      expect(new Set(first.slice(0, 3).map((t) => t.background)).size).toBe(3);
      expect(new Set(first.slice(3).map((t) => t.background)).size).toBe(1);
      expect(await page.locator('#version').textContent()).toBe(
        'v2 · staleness 1 (the trainer was at v3 when it consumed the group)',
      );
      // No picture for a rollout turn: no empty frame either.
      expect(await page.locator('#frame').isVisible()).toBe(false);
      expect(await page.locator('#note').textContent()).toBe('group g7 · consumed by the trainer at v3 (admitted)');
      await page.keyboard.press('ArrowRight');
      await page.waitForFunction(() => document.body.dataset['step'] === '1');
      expect(await page.locator('#version').textContent()).toBe(
        'v3 · staleness 0 (the trainer was at v3 when it consumed the group)',
      );
      const picture = join(dir, 'view-trajectories.png');
      await page.screenshot({ path: picture });
      console.log(`viewer screenshot: ${picture}`);
      // A bare Trajectory: token ids only, the version without a staleness.
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('ArrowDown');
      await page.waitForFunction(
        () => document.body.dataset['episode'] === '2' && document.body.dataset['step'] === '0',
      );
      expect((await tokens()).map((t) => t.text)).toEqual(['#11', '#12', '#13', '#20', '#21']);
      expect(await page.locator('#version').textContent()).toMatch(
        /^v5 · staleness unknown \(the file does not record/,
      );
      // The trainer rewrites its file: the page notices the episode it asked for is gone, reads the
      // list again and opens the first episode of the new file.
      writeFileSync(file, `${JSON.stringify(consumedGroup('g9', 4, [4]))}\n`);
      await page.keyboard.press('ArrowUp');
      await page.waitForFunction(() => document.getElementById('note')!.textContent!.startsWith('group g9'));
      expect(await page.locator('#episodes li').count()).toBe(2);
      expect(await page.evaluate(() => document.body.dataset['episode'])).toBe('0');
      expect(problems).toEqual([]);
      await page.close();
    } finally {
      stop.abort();
      await serving;
    }
  }, 60_000);
});
