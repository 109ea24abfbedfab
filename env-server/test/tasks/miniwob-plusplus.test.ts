import { ValidationError, type StepResult } from '@gauntlet/proto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULTS, resolveConfig, type ServerConfig } from '../../src/config.js';
import { EnvService } from '../../src/server/env-service.js';
import type { EnvSession } from '../../src/sessions/session.js';
import { miniwobPages } from './miniwob-plusplus-source.js';

// BrowserGym's MiniWoB++ semantics on MiniWoB-protocol fixture pages (or a real copy when
// MINIWOB_URL is set; fixture-only checks say so in their names and skip with that reason).
const pages = miniwobPages();
let service: EnvService;
let session: EnvSession;

function openService(extra: Partial<ServerConfig> = {}): EnvService {
  return new EnvService({
    ...structuredClone(DEFAULTS),
    warmContexts: 1,
    maxSessions: 3,
    idleTtlMs: 0,
    ...pages.config,
    ...extra,
  });
}

beforeAll(async () => {
  service = openService();
  await service.start();
  session = await service.openSession('inproc');
});
afterAll(async () => {
  await service?.shutdown();
  pages.remove();
});

const reset = (task: string, seed: number, extra: Record<string, unknown> = {}) =>
  service.reset(session, { task_name: task, seed, observation: { axtree: true, pruned_html: true }, ...extra });
const step = (action: string) => service.step(session, { action: { action_str: action } });
const bidOf = (result: StepResult, pattern: RegExp) => {
  const bid = pattern.exec(result.observation.axtree_txt)?.[1];
  if (!bid) throw new Error(`no ${pattern} in\n${result.observation.axtree_txt}`);
  return bid;
};
const taskPage = () => session.pages()[0]!;
const fixtureOnly = pages.fixtures ? it : it.skip;

describe('the task list', () => {
  it('offers every page as miniwob.<name>; real ones win bare names, ours stay as miniwob-builtin.<name>', () => {
    const names = service.registry.names();
    expect(names).toEqual(expect.arrayContaining(['miniwob.click-test', 'miniwob.enter-text', 'miniwob.book-flight']));
    expect(names).toContain('miniwob-builtin.click-test');
    expect(service.registry.resolve('click-test').display).toMatchObject({ width: 332, height: 214 });
    expect(service.registry.resolve('miniwob-builtin.click-test').display).toBeUndefined();
  });

  it('flags the real-time tasks BrowserGym leaves out', () => {
    const chase = service.registry.resolve('miniwob.chase-circle');
    expect(chase.flags).toEqual(['realtime']);
    expect(service.registry.resolve('miniwob.click-test').flags).toBeUndefined();
  });
});

describe('an episode, as BrowserGym plays it', () => {
  it('starts with the utterance as goal and the human display gone from the page and the observation', async () => {
    const result = await reset('click-test', 1);
    const o = result.observation;
    expect(o.goal).toBe('Click the button.');
    expect(o.url).toMatch(/\/click-test\.html$/);
    expect(result).toMatchObject({ reward: 0, done: false });
    for (const text of [o.axtree_txt, o.pruned_html]) {
      expect(text).toContain('Click Me!');
      expect(text).not.toMatch(/START|Time left|Last reward|Episodes done|Click the button/);
    }
    const dom = await taskPage().evaluate(() => ({
      query: document.getElementById('query')?.textContent,
      cover: document.getElementById('sync-task-cover'),
      display: document.getElementById('reward-display'),
      canvas: document.getElementById('click-canvas'),
      viewport: [innerWidth, innerHeight, devicePixelRatio],
    }));
    expect(dom).toEqual({ query: '', cover: null, display: null, canvas: null, viewport: [332, 214, 1.5] });
  });

  it('a click that wins: reward 1, done, the raw reward and MiniWoB state in metadata; the display stays away', async () => {
    const first = await reset('click-test', 2);
    const result = await step(`click('${bidOf(first, /\[(\w+)\] button 'Click Me!'/)}')`);
    expect(result).toMatchObject({ reward: 1, done: true });
    expect(result.metadata.browsergym_info['raw_reward']).toBe(1);
    expect(result.metadata.browsergym_info['task_info']).toMatchObject({ RAW_REWARD_GLOBAL: 1, DONE_GLOBAL: true });
    expect(result.observation.axtree_txt).not.toMatch(/START|Last reward/);
  });

  it('uses the miniwob_all action set by default and takes coordinates in screenshot pixels (scale 1.5)', async () => {
    const first = await service.reset(session, {
      task_name: 'click-test',
      seed: 3,
      observation: { axtree: true, extra_properties: true, screenshot: 'png' },
    });
    expect(first.metadata.screenshot_encoded).toMatchObject({ width: 498, height: 321 });
    const missing = await step(`send_msg_to_user('hi')`);
    expect(missing.observation.last_action_error).toBe(true);
    const bid = bidOf(first, /\[(\w+)\] button 'Click Me!'/);
    const [x, y, w, h] = first.metadata.browsergym_obs.extra_element_properties[bid]!.bbox!;
    const inCss = await taskPage().evaluate(() => document.querySelector('button')!.getBoundingClientRect().left);
    expect(x).toBeCloseTo(inCss * 1.5, 5);
    const result = await step(`mouse_click(${x + w / 2}, ${y + h / 2})`);
    expect(result).toMatchObject({ reward: 1, done: true });
  });

  it('leaving the task page ends the episode unrewarded', async () => {
    const first = await reset('click-test', 4, { action_set: { subsets: ['bid', 'nav'] } });
    const result = await step(`goto('${first.observation.url.replace('click-test', 'enter-text')}')`);
    expect(result).toMatchObject({ reward: 0, done: true });
    expect(result.metadata.browsergym_info['task_reason']).toBe('invalid url, terminating task');
  });

  it('refuses seeds NumPy refuses, and options, as ValidationErrors', async () => {
    await expect(reset('click-test', 2 ** 32)).rejects.toBeInstanceOf(ValidationError);
    await expect(reset('click-test', 1, { options: { episode_max_time: 5 } })).rejects.toBeInstanceOf(ValidationError);
    await expect(reset('click-test', 2 ** 32 - 1)).resolves.toMatchObject({ done: false });
  });
});

describe('fixture pages: the exact protocol', () => {
  fixtureOnly("passes NumPy's draw to Math.seedrandom (seed 42 → 121958), once per episode", async () => {
    await reset('click-test', 42);
    expect(await taskPage().evaluate(() => (window as Window & { FIXTURE_SEEDS?: number[] }).FIXTURE_SEEDS)).toEqual([
      121958,
    ]);
    await reset('click-test', 0);
    expect(await taskPage().evaluate(() => (window as Window & { FIXTURE_SEEDS?: number[] }).FIXTURE_SEEDS)).toEqual([
      985772,
    ]);
  });

  fixtureOnly('reads a goal given as {utterance, fields}; a wrong answer ends with raw -1 and reward 0', async () => {
    const first = await reset('enter-text', 5);
    expect(first.observation.goal).toMatch(/^Enter "\w+" into the text field and press Submit\.$/);
    await step(`fill('${bidOf(first, /\[(\w+)\] textbox/)}', 'not it')`);
    const result = await step(`click('${bidOf(first, /\[(\w+)\] button 'Submit'/)}')`);
    expect(result).toMatchObject({ reward: 0, done: true });
    expect(result.metadata.browsergym_info['raw_reward']).toBe(-1);
  });

  fixtureOnly('waits for WOB_TASK_READY; partial credit (raw 0.5) is reward 1, raw reported', async () => {
    const first = await reset('book-flight', 6);
    const buttons = [...first.observation.axtree_txt.matchAll(/\[(\w+)\] button 'Book \$\d+'/g)];
    expect(buttons).toHaveLength(2);
    const result = await step(`click('${buttons[1]![1]}')`);
    expect(result).toMatchObject({ reward: 1, done: true });
    expect(result.metadata.browsergym_info['raw_reward']).toBe(0.5);
  });
});

describe("OpenEnv's container variables", () => {
  it('BROWSERGYM_BENCHMARK=miniwob and BROWSERGYM_TASK_NAME make a reset without a task name play that task', async () => {
    const fromEnv = resolveConfig({}, { BROWSERGYM_BENCHMARK: 'miniwob', BROWSERGYM_TASK_NAME: 'enter-text' });
    const other = openService({ benchmark: fromEnv.benchmark, defaultTask: fromEnv.defaultTask, warmContexts: 1 });
    try {
      await other.start();
      const own = await other.openSession('inproc');
      const result = await other.reset(own, { seed: 7 });
      expect(other.state(own)).toMatchObject({ task_name: 'miniwob.enter-text', benchmark: 'miniwob' });
      expect(result.observation.url).toMatch(/\/enter-text\.html$/);
      expect(await own.pages()[0]!.evaluate(() => [innerWidth, devicePixelRatio])).toEqual([332, 1.5]);
    } finally {
      await other.shutdown();
    }
  });

  it('an unknown BROWSERGYM_BENCHMARK or default task stops the server at start, with the choices', () => {
    expect(() => openService({ benchmark: 'webarena' })).toThrow(/webarena.*benchmarks: gauntlet, miniwob/);
    expect(() => openService({ defaultTask: 'no-such-task' })).toThrow(/BROWSERGYM_TASK_NAME.*no-such-task/);
  });
});
