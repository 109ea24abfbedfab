import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEnvClient } from '../../proto/src/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../agent/src/cli/main.js';
import type { LocalEnv } from '../../agent/src/env/local-env.js';
import { parseSftJsonl } from '../../trainer/src/train/sft-data.js';
import {
  ACTION,
  clickNamedButton,
  demonstrate as record,
  startHeadedEnv,
  type Act,
  type HeadedEnv,
} from './recording.js';

// A person's demonstration end to end: a virtual display (Xvfb, started here, since CI has no
// display), an env server allowed to open headed windows, `gauntlet-agent record` recording, and
// Playwright as the person — connected to the env's headed Chromium over CDP, moving the real
// mouse and typing on the real keyboard. Each demo is then replayed headless on the same seed.
// Outside agent/ because the agent may not import Playwright (scripts/check-boundaries.mjs).
const dir = mkdtempSync(join(tmpdir(), 'agent-record-'));
let headed: HeadedEnv;
let env: LocalEnv;

beforeAll(async () => {
  headed = await startHeadedEnv();
  env = headed.env;
}, 120_000);
afterAll(() => headed?.stop());

/** Records `task` with `act` as the person into its own folder; returns the demo and that folder. */
async function demonstrate(task: string, seed: number, act: Act, url = env.url) {
  const out = join(dir, `${task.replace(':', '_')}-${seed}`);
  return { ...(await record(headed, { task, seed, out, url }, act)), out };
}

async function replays(out: string): Promise<void> {
  const lines: string[] = [];
  const io = { out: (l: string) => lines.push(l), err: (l: string) => lines.push(l) };
  const code = await main(['record', '--replay', join(out, 'demo.json'), '--env', env.url], { io });
  expect(code, lines.join('\n')).toBe(0);
  expect(lines.at(-1)).toMatch(/^faithful: replay reward 1, recorded 1/);
}

describe('record: a person drives the real mouse and keyboard', () => {
  it('click-button: one click on the named button', async () => {
    const { demo, out } = await demonstrate('click-button', 3, clickNamedButton);
    expect(demo.steps.map((s) => s.action)).toEqual([expect.stringMatching(/^click\('\d+'\)$/)]);
    expect(demo).toMatchObject({ task: 'click-button', seed: 3, reward: 1, done: true });
    const [step] = demo.steps;
    expect(step!.observation.axtree).toContain('button');
    expect(step!.observation.pruned_html).toContain('<button');
    expect(readFileSync(join(out, step!.observation.screenshot!)).subarray(1, 4).toString()).toBe('PNG');
    // demo.jsonl is SFT data as gauntlet-env collect writes it: the trainer's own reader takes it.
    const [record] = parseSftJsonl('demo.jsonl', readFileSync(join(out, 'demo.jsonl'), 'utf8'));
    expect(record).toMatchObject({ kind: 'chat' });
    await replays(out);
  });

  it('enter-text: typing becomes one fill, then the submit click', async () => {
    const { demo, out } = await demonstrate('enter-text', 5, async (person, page, lines) => {
      const [text] = await person.quoted();
      await person.type(page.getByRole('textbox'), text!);
      await lines.until(ACTION, 1);
      await person.click(page.getByRole('button', { name: 'Submit' }));
    });
    const text = demo.steps.find((s) => s.action.startsWith('fill('));
    expect(demo.steps.map((s) => s.action.split('(')[0])).toEqual(['click', 'fill', 'click']);
    expect(text!.action).toMatch(/^fill\('\d+', '.+'\)$/);
    expect(demo.reward).toBe(1);
    await replays(out);
  });

  it('click-checkboxes: the named boxes, then Submit', async () => {
    const { demo, out } = await demonstrate('click-checkboxes', 2, async (person, page, lines) => {
      const wanted = await person.quoted();
      for (const [i, name] of wanted.entries()) {
        await person.click(page.getByRole('checkbox', { name, exact: true }));
        await lines.until(ACTION, i + 1);
      }
      await person.click(page.getByRole('button', { name: 'Submit' }));
    });
    expect(demo.steps.every((s) => s.action.startsWith('click('))).toBe(true);
    expect(demo.reward).toBe(1);
    await replays(out);
  });

  it('choose-list: a choice made with the keyboard becomes select_option', async () => {
    const { demo, out } = await demonstrate('choose-list', 4, async (person, page, lines) => {
      const [wanted] = await person.quoted();
      await person.click(page.getByRole('combobox'));
      await person.page.keyboard.type(wanted!);
      await person.press('Enter');
      await lines.until(/select_option/);
      await person.click(page.getByRole('button', { name: 'Submit' }));
    });
    // The popup took the Enter: only the choice and the Submit click are the person's actions.
    expect(demo.steps.map((s) => s.action)).toEqual([
      expect.stringMatching(/^select_option\('\d+', '.+'\)$/),
      expect.stringMatching(/^click\('\d+'\)$/),
    ]);
    expect(demo.reward).toBe(1);
    await replays(out);
  });

  it('login-user: two fields, Tab to the button, Enter', async () => {
    const { demo, out } = await demonstrate('login-user', 6, async (person, page, lines) => {
      const [user, password] = await person.quoted();
      await person.type(page.getByRole('textbox', { name: 'Username' }), user!);
      await lines.until(ACTION, 1);
      await person.type(page.getByRole('textbox', { name: 'Password' }), password!);
      // Tab to the Login button (the env plays the Tab: the fill comes first), Enter presses it.
      await person.press('Tab');
      await lines.until(/press\('\d+', 'Tab'\)/);
      await person.press('Enter');
    });
    expect(demo.steps.filter((s) => s.action.startsWith('fill(')).length).toBe(2);
    expect(demo.steps.at(-1)!.action).toMatch(/^press\('\d+', 'Enter'\)$/);
    expect(demo.reward).toBe(1);
    await replays(out);
  });

  it('Ctrl-C stops the recording and keeps what was done so far', async () => {
    const { demo, lines } = await demonstrate('click-checkboxes', 7, async (person, page, lines, stop) => {
      await person.click(page.getByRole('checkbox').first());
      await lines.until(ACTION, 1);
      stop.abort();
    });
    expect(demo).toMatchObject({
      done: false,
      reward: 0,
      steps: [{ index: 0, action: expect.stringMatching(/^click/) }],
    });
    expect(lines.all.at(-1)).toMatch(/recorded 1 action\(s\), reward 0 \(stopped before the episode ended\)/);
  });

  it('a Gauntlet step (over the WebSocket transport): click a sequence, read the code, type it and submit', async () => {
    const { demo, out } = await demonstrate(
      'gauntlet:click_sequence',
      1,
      async (person, page, lines) => {
        const rule = await page.getByText('Click the buttons in this order').innerText();
        const order = [...rule.matchAll(/"([^"]*)"/g)].map((m) => m[1]!);
        for (const [i, name] of order.entries()) {
          await person.click(page.getByRole('button', { name, exact: true }));
          await lines.until(ACTION, i + 1);
        }
        const code = await page.getByRole('region', { name: 'Revealed code' }).locator('output').innerText();
        await person.type(page.getByRole('textbox', { name: 'Code' }), code);
        await lines.until(ACTION, order.length + 1);
        await person.click(page.getByRole('button', { name: 'Submit code' }));
      },
      env.url.replace(/^http/, 'ws'),
    );
    expect(demo.steps.some((s) => s.action.startsWith('fill('))).toBe(true);
    expect(demo.reward).toBe(1);
    await replays(out);
  });
});

describe('record: scrolling', () => {
  it('a Gauntlet scroll-to-find step: a burst of wheel turns becomes one scroll(dx, dy)', async () => {
    const { demo, out } = await demonstrate('gauntlet:scroll_to_find', 3, async (person, page, lines) => {
      const revealed = page.getByRole('region', { name: 'Revealed code' });
      const box = (await page.getByText('Somewhere further down').boundingBox())!;
      await page.mouse.move(box.x + 20, box.y + 5);
      for (let turns = 0; turns < 40 && (await revealed.count()) === 0; turns += 1) await page.mouse.wheel(0, 300);
      await lines.until(/scroll\(/);
      const code = await revealed.locator('output').innerText();
      // Back up to the Code box, then type the code there.
      await page.mouse.wheel(0, -20_000);
      await lines.until(/scroll\(/, 2);
      await person.type(page.getByRole('textbox', { name: 'Code' }), code);
      await lines.until(ACTION, 3);
      await person.click(page.getByRole('button', { name: 'Submit code' }));
    });
    expect(demo.steps.filter((s) => s.action.startsWith('scroll(')).map((s) => s.action)).toEqual([
      expect.stringMatching(/^scroll\(0, [1-9]\d*\)$/),
      expect.stringMatching(/^scroll\(0, -[1-9]\d*\)$/),
    ]);
    expect(demo.reward).toBe(1);
    await replays(out);
  });
});

describe('record: dragging', () => {
  it('a Gauntlet drag and drop step: each drag becomes drag_and_drop(from, to)', async () => {
    const { demo, out } = await demonstrate('gauntlet:drag_and_drop', 2, async (person, page, lines) => {
      const rule = await page.getByText('Drag these items into the').innerText();
      const [zone, ...wanted] = [...rule.matchAll(/"([^"]*)"/g)].map((m) => m[1]!);
      const target = page.getByRole('region', { name: `${zone} drop zone` });
      for (const [i, name] of wanted.entries()) {
        await person.drag(page.getByRole('listitem', { name, exact: true }), target);
        await lines.until(ACTION, i + 1);
      }
      const code = await page.getByRole('region', { name: 'Revealed code' }).locator('output').innerText();
      await person.type(page.getByRole('textbox', { name: 'Code' }), code);
      await lines.until(ACTION, wanted.length + 1);
      await person.click(page.getByRole('button', { name: 'Submit code' }));
    });
    const drags = demo.steps.filter((s) => s.action.startsWith('drag_and_drop('));
    expect(drags.length).toBeGreaterThanOrEqual(2);
    expect(drags.every((s) => /^drag_and_drop\('\w+', '\w+'\)$/.test(s.action))).toBe(true);
    expect(demo.reward).toBe(1);
    await replays(out);
  });
});

describe('one session, recording then not', () => {
  it('an episode after a recording gets a fresh context: its clicks are not stopped by the recorder', async () => {
    const client = createEnvClient(env.url);
    try {
      await client.reset({ task_name: 'click-button', seed: 3, browser: { record: true } });
      const next = await client.reset({
        task_name: 'click-button',
        seed: 3,
        browser: { headed: true },
        observation: { oracle_action: true },
      });
      const action = next.metadata.browsergym_info.oracle_action as string;
      const result = await client.step(action);
      expect(result).toMatchObject({ reward: 1, done: true });
    } finally {
      await client.close();
    }
  });
});

describe('run --headed', () => {
  it('the oracle plays click-button in the visible browser', async () => {
    const out = join(dir, 'headed-run');
    const lines: string[] = [];
    const io = { out: (l: string) => lines.push(l), err: (l: string) => lines.push(l) };
    const args = ['run', '--task', 'click-button', '--seeds', '9', '--headed', '--env', env.url, '--out', out];
    const code = await main(args, { io });
    expect(code, lines.join('\n')).toBe(0);
    expect(lines.at(-1)).toMatch(/^1\/1 episodes succeeded/);
  });
});
