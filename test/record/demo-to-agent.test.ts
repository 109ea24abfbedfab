import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../agent/src/cli/main.js';
import { findBin } from '@gauntlet/proto/cli';
import type { Demo } from '../../agent/src/record/demo-files.js';
import { findChromium } from '../../env-server/src/browser/executable.js';
import { agent, readRun } from '../../agent/test/support/agent.js';
import { clickNamedButton, demonstrate, startHeadedEnv, type HeadedEnv } from './recording.js';

// "From one demo to an agent", the walkthrough of docs/agent.md, as one user would do it: a
// person (Playwright on the real mouse, under Xvfb) records click-button, the recording is
// replayed, `gauntlet-trainer sft` trains an adapter on its demo.jsonl (a real process, on a tiny
// model made by init-tiny), the agent runs that adapter and the base model in local mode, compares
// the two runs, and `view` shows the demonstration in a real browser. What is checked is the
// plumbing — exit codes, files, the table, the page — not that a tiny model learned anything.
const run = promisify(execFile);
const TRAINER = findBin('gauntlet-trainer');
const dir = mkdtempSync(join(tmpdir(), 'demo-to-agent-'));
const DEMO = join(dir, 'demo');
const MODEL = join(dir, 'model');
const ADAPTER = join(dir, 'adapter');
/** One task, one seed, few tokens: the model's replies are noise, only the path matters. */
const TASK = ['--task', 'click-button', '--seeds', '0', '--max-steps', '2', '--max-tokens', '32'];

let headed: HeadedEnv;
let demo: Demo;
beforeAll(async () => {
  const tiny = ['--hidden-size', '32', '--layers', '1', '--heads', '2', '--max-positions', '2048'];
  const [started] = await Promise.all([startHeadedEnv(), run(TRAINER, ['init-tiny', MODEL, ...tiny])]);
  headed = started;
  ({ demo } = await demonstrate(headed, { task: 'click-button', seed: 0, out: DEMO }, clickNamedButton));
}, 180_000);
afterAll(() => headed?.stop());

describe('from one demo to an agent', () => {
  it('record wrote demo.json (with the bid box of the click), screenshots and demo.jsonl; the replay is faithful', async () => {
    expect(demo).toMatchObject({ task: 'click-button', seed: 0, reward: 1, done: true });
    const [step] = demo.steps;
    expect(step!.action).toMatch(/^click\('\d+'\)$/);
    const bid = /'(\d+)'/.exec(step!.action)![1];
    expect(step!.marks).toEqual([{ kind: 'box', action: 'click', bid, bbox: expect.any(Array) }]);
    expect(existsSync(join(DEMO, step!.observation.screenshot!))).toBe(true);
    expect(readFileSync(join(DEMO, 'demo.jsonl'), 'utf8').trim().split('\n')).toHaveLength(1);

    const replay = await agent(['record', '--replay', join(DEMO, 'demo.json'), '--env', headed.env.url]);
    expect(replay.code, replay.err.join('\n')).toBe(0);
    expect(replay.out.at(-1)).toMatch(/^faithful: replay reward 1, recorded 1/);
  });

  it('sft on demo.jsonl → run --mode local with the adapter and without → compare names both runs', async () => {
    const sft = ['sft', '--data', join(DEMO, 'demo.jsonl'), '--model', MODEL, '--out', ADAPTER];
    await run(TRAINER, [...sft, '--steps', '2', '--batch-size', '1', '--rank', '2']);
    expect(existsSync(join(ADAPTER, 'adapter_config.json'))).toBe(true);

    const local = ['run', '--env', headed.env.url, '--mode', 'local', '--model-dir', MODEL, ...TASK];
    const [base, adapted] = [join(dir, 'base'), join(dir, 'adapted')];
    const baseRun = await agent([...local, '--out', base]);
    expect(baseRun.code, baseRun.err.join('\n')).toBe(0);
    const adaptedRun = await agent([...local, '--adapter', ADAPTER, '--out', adapted]);
    expect(adaptedRun.code, adaptedRun.err.join('\n')).toBe(0);
    for (const [folder, adapter] of [
      [base, null],
      [adapted, ADAPTER],
    ] as const) {
      const { metrics, episodes } = readRun(folder);
      expect(metrics.run).toMatchObject({ mode: 'local', model_dir: MODEL, adapter });
      expect(episodes).toHaveLength(1);
      expect(['success', 'fail', 'timeout']).toContain(episodes[0]!.outcome);
    }

    const compared = await agent(['compare', base, adapted]);
    expect(compared.code).toBe(0);
    const table = compared.out.join('\n');
    expect(table).toMatch(/^click-button +\d+% +\d+% +[-+±]\d+%/m);
    expect(table).toContain(`A: ${base} (mode local`);
    expect(table).toContain(`B: ${adapted} (mode local, model adapter, adapter ${ADAPTER})`);
  }, 180_000);

  it('view shows the demonstration in a real browser: screenshot, the click with its bid box, the AXTree, the reward', async () => {
    const stop = new AbortController();
    const lines: string[] = [];
    const io = { out: (l: string) => lines.push(l), err: (l: string) => lines.push(l) };
    const serving = main(['view', join(DEMO, 'demo.json'), '--port', '0'], { io, env: {}, signal: stop.signal });
    const browser = await chromium.launch({
      executablePath: findChromium().path,
      args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
    });
    try {
      await expect.poll(() => lines.length, { timeout: 10_000 }).toBeGreaterThan(0);
      const url = /^http:\/\/127\.0\.0\.1:\d+\//.exec(lines[0]!)![0];
      const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
      const problems: string[] = [];
      page.on('pageerror', (e) => problems.push(e.message));
      page.on('response', (r) => r.status() >= 400 && problems.push(`${r.status()}: ${r.url()}`));
      await page.goto(url);
      await page.waitForFunction(() => {
        const img = document.getElementById('shot') as HTMLImageElement;
        return document.body.dataset['step'] === '0' && img.complete && img.naturalWidth > 0;
      });
      expect(await page.locator('#episodes li').allTextContents()).toEqual([
        'click-button · seed 0success · reward 1 · 1 steps',
      ]);
      const [step] = demo.steps;
      expect(await page.locator('#shot').getAttribute('src')).toBe(`/files/${step!.observation.screenshot}`);
      expect(await page.locator('#action').textContent()).toBe(step!.action);
      expect(await page.locator('#reward').textContent()).toMatch(/^1/);
      // No model wrote anything: the raw-text box is not shown.
      expect(await page.locator('#text-box').isVisible()).toBe(false);
      expect(await page.locator('.mark').allTextContents()).toEqual([`click '${/'(\d+)'/.exec(step!.action)![1]}'`]);
      // The first step shows the whole tree as new, the button among it.
      expect(await page.locator('#diff div.add').allTextContents()).toContainEqual(expect.stringMatching(/button/));
      expect(await page.locator('#note').textContent()).toContain("a person's demonstration");
      const picture = join(dir, 'view-demo.png');
      await page.screenshot({ path: picture });
      console.log(`viewer screenshot: ${picture}`);
      expect(problems).toEqual([]);
    } finally {
      await browser.close();
      stop.abort();
      expect(await serving).toBe(130); // as after Ctrl-C
    }
  });
});
