import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { WEB_SYSTEM_PROMPT } from '@gauntlet/proto/agent';
import { createEnvClient } from '@gauntlet/proto/client';
import type { Demo } from '../../agent/src/record/demo-files.js';
import { agent } from '../../agent/test/support/agent.js';
import { startWebSite, type WebSite } from '../../agent/test/support/web-site.js';
import { ACTION, demonstrate, startHeadedEnv, type HeadedEnv } from './recording.js';

// `record --url URL --goal TEXT`: a person's demonstration on an open-web task, a site the test
// serves itself on loopback (the env allows its origin, as an operator would). Playwright is the
// person under Xvfb, on the real mouse and keyboard, across a page load; Ctrl-C ends the
// recording, since a person sends no send_msg_to_user. The replay starts on the same page.
const dir = mkdtempSync(join(tmpdir(), 'agent-record-web-'));
const GOAL = 'Place an order and leave the note "ring twice"';
let site: WebSite;
let headed: HeadedEnv;
beforeAll(async () => {
  site = await startWebSite();
  headed = await startHeadedEnv(['--allow-origin', site.origin]);
}, 120_000);
afterAll(async () => {
  await headed?.stop();
  await site?.close();
});

it('record --url --goal: clicks, a page load and a fill become web-task actions; the replay starts on the same page', async () => {
  const out = join(dir, 'shop');
  const start = `${site.origin}/`;
  const { demo, lines } = await demonstrate(
    headed,
    { web: ['--url', start, '--goal', GOAL], out },
    async (person, page, lines, stop) => {
      await person.click(page.getByRole('link', { name: 'Place order' }));
      await lines.until(ACTION, 1);
      await page.waitForURL(`${site.origin}/order`);
      await person.type(page.getByRole('textbox', { name: 'Note' }), 'ring twice');
      await person.click(page.getByRole('button', { name: 'Send note' }));
      await lines.until(/#\d+ click\(/, 3);
      stop.abort();
    },
  );
  expect(lines.all.at(-1)).toMatch(/recorded 4 action\(s\), reward 0 \(stopped before the episode ended\)/);
  expect(demo).toMatchObject({ task: 'web', goal: GOAL, reward: 0, done: false, web: { url: start, goal: GOAL } });
  expect(demo.steps.map((s) => s.action.split('(')[0])).toEqual(['click', 'click', 'fill', 'click']);
  expect(demo.steps[2]!.action).toMatch(/^fill\('\w+', 'ring twice'\)$/);
  expect(demo.steps.map((s) => s.observation.url)).toEqual([start, ...Array(3).fill(`${site.origin}/order`)]);
  expect(demo.steps[0]!.observation.axtree).toMatch(/link 'Place order'/);
  // demo.jsonl trains on the open-web task's own system prompt.
  const sft = JSON.parse(readFileSync(join(out, 'demo.jsonl'), 'utf8')) as { messages: { content: string }[] };
  expect(sft.messages[0]!.content).toBe(WEB_SYSTEM_PROMPT);

  // The replay resets the web task with the recorded options: every action finds its element.
  for (const env of [['--env', headed.env.url], []]) {
    const replay = await agent(['record', '--replay', join(out, 'demo.json'), ...env]);
    expect(replay.code, replay.err.join('\n')).toBe(0);
    const played = replay.err.filter((l) => /#\d+ /.test(l));
    expect(played, replay.err.join('\n')).toHaveLength(4);
    expect(played.every((l) => !l.includes(' — '))).toBe(true);
    expect(replay.out.at(-1)).toMatch(/^faithful: replay reward 0, recorded 0 — web seed 0/);
  }
}, 180_000);

it("a double click is one dblclick, and its replay leaves the page as the person's did", async () => {
  const out = join(dir, 'counter');
  let live = '';
  const { demo } = await demonstrate(
    headed,
    { web: ['--url', `${site.origin}/counter`, '--goal', 'Double-click Open'], out },
    async (person, page, lines, stop) => {
      await person.doubleClick(page.getByRole('button', { name: 'Open' }));
      await lines.until(/#0 dblclick\(/);
      await page.getByText('double clicks 1').waitFor();
      live = await page.locator('#count').innerText();
      stop.abort();
    },
  );
  expect(demo.steps.map((s) => s.action)).toEqual([expect.stringMatching(/^dblclick\('\w+'\)$/)]);
  // The page counted the clicks the browser made of the person's double click; the replayed
  // dblclick makes the same (a click then a dblclick would make one click more).
  expect(live).toBe('clicks 2, double clicks 1');
  expect(await replayedPage(demo)).toContain(`StaticText '${live}'`);
});

/** The page after a demo's actions, replayed on a fresh episode of its web task. */
async function replayedPage(demo: Demo): Promise<string> {
  const env = createEnvClient(headed.env.url);
  try {
    await env.reset({ task_name: demo.task, seed: demo.seed, options: demo.web! });
    let axtree = '';
    for (const step of demo.steps) {
      const result = await env.step(step.action);
      expect(result.observation.metadata.browsergym_obs.last_action_error).toBe('');
      axtree = result.observation.axtree_txt;
    }
    return axtree;
  } finally {
    await env.close();
  }
}
