import { ValidationError, type StepResult } from '@gauntlet/proto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULTS, resolveConfig, type ServerConfig } from '../../src/config.js';
import { metadataDocument } from '../../src/server/describe.js';
import { EnvService } from '../../src/server/env-service.js';
import type { EnvSession } from '../../src/sessions/session.js';
import { miniwobPages } from './miniwob-plusplus-source.js';

// BrowserGym's MiniWoB++ semantics on MiniWoB-protocol fixture pages, or on a real copy when
// MINIWOB_URL is set; checks that need a page's own code come in one set for each.
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

describe('the task list', () => {
  it('offers every page as miniwob.<name>; real ones win bare names, ours stay as miniwob-builtin.<name>', () => {
    const names = service.registry.names();
    expect(names).toEqual(expect.arrayContaining(['miniwob.click-test', 'miniwob.enter-text', 'miniwob.book-flight']));
    expect(names).toContain('miniwob-builtin.click-test');
    expect(service.registry.resolve('click-test').display).toMatchObject({ width: 332, height: 214 });
    expect(service.registry.resolve('miniwob-builtin.click-test').display).toBeUndefined();
  });

  it('lists every task in /metadata too', () => {
    const readme = String(metadataDocument(service.registry.names())['readme_content']);
    expect(readme).toContain('miniwob.click-test');
    expect(readme).toContain('miniwob-builtin.click-test');
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
    // BrowserGym never truncates: no step limit of ours.
    expect(service.state(session).max_steps).toBeNull();
  });

  it("keeps BrowserGym's default action set; miniwob_all takes coordinates in screenshot pixels (scale 1.5)", async () => {
    await reset('click-test', 3);
    expect((await step(`send_msg_to_user('hi')`)).observation.last_action_error).toBe(false);
    const first = await service.reset(session, {
      task_name: 'click-test',
      seed: 3,
      observation: { axtree: true, extra_properties: true, screenshot: 'png' },
      action_set: { subsets: ['miniwob_all'] },
    });
    expect(first.metadata.screenshot_encoded).toMatchObject({ width: 498, height: 321 });
    expect((await step(`send_msg_to_user('hi')`)).observation.last_action_error).toBe(true);
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

describe('the seed, the goal and the reward, as BrowserGym gives them', () => {
  it("passes NumPy's draw to Math.seedrandom (seed 42 → 121958), once per episode, on a fresh page", async () => {
    // Every Math.seedrandom the page installs is wrapped, so the calls it gets are recorded.
    await taskPage()
      .context()
      .addInitScript(() => {
        const seen: unknown[] = [];
        let installed: ((...args: unknown[]) => unknown) | undefined;
        Object.defineProperty(window, 'SEEDS_SEEN', { value: seen });
        Object.defineProperty(Math, 'seedrandom', {
          configurable: true,
          set: (fn: (...args: unknown[]) => unknown) => (installed = fn),
          get: () =>
            installed &&
            function (this: unknown, ...args: unknown[]) {
              seen.push(args[0]);
              return installed!.apply(this, args);
            },
        });
      });
    const seeds = () => taskPage().evaluate(() => (window as Window & { SEEDS_SEEN?: unknown[] }).SEEDS_SEEN);
    await reset('click-test', 42);
    expect(await seeds()).toEqual([121958]);
    await reset('click-test', 0);
    expect(await seeds()).toEqual([985772]);
  });

  it('the goal is the utterance; a wrong answer ends the episode with raw -1 and reward 0', async () => {
    const first = await reset('enter-text', 5);
    expect(first.observation.goal).toMatch(/^Enter "\w+" into the text field and press Submit\.$/);
    await step(`fill('${bidOf(first, /\[(\w+)\] textbox/)}', 'not it')`);
    const result = await step(`click('${bidOf(first, /\[(\w+)\] button 'Submit'/)}')`);
    expect(result).toMatchObject({ reward: 0, done: true });
    expect(result.metadata.browsergym_info['raw_reward']).toBe(-1);
  });
});

// Checks that need to know a page's own code: one set for our fixtures, one for MiniWoB++'s pages.
if (pages.fixtures)
  describe('fixture pages: the exact protocol', () => {
    it('reads a goal given as {utterance, fields}', async () => {
      const first = await reset('enter-text', 5);
      expect(
        await taskPage().evaluate(
          () => typeof (window as unknown as { core: { getUtterance(): unknown } }).core.getUtterance(),
        ),
      ).toBe('object');
      expect(first.observation.goal).toMatch(/^Enter "\w+"/);
    });

    it("waits for what a step's action started on a timer: it is in that step's observation", async () => {
      const first = await reset('delayed-reveal', 1);
      const shown = await step(`click('${bidOf(first, /\[(\w+)\] button 'Show'/)}')`);
      const result = await step(`click('${bidOf(shown, /\[(\w+)\] button 'Done'/)}')`);
      expect(result).toMatchObject({ reward: 1, done: true });
    });

    it('waits for WOB_TASK_READY; partial credit (raw 0.5) is reward 1, raw reported', async () => {
      const first = await reset('book-flight', 6);
      const buttons = [...first.observation.axtree_txt.matchAll(/\[(\w+)\] button 'Book \$\d+'/g)];
      expect(buttons).toHaveLength(2);
      const result = await step(`click('${buttons[1]![1]}')`);
      expect(result).toMatchObject({ reward: 1, done: true });
      expect(result.metadata.browsergym_info['raw_reward']).toBe(0.5);
    });
  });
else
  describe("MiniWoB++'s own pages (MINIWOB_URL)", () => {
    it('click-test: seed 42 lays the button out as Math.seedrandom(121958) right before genProblem does', async () => {
      for (let round = 0; round < 2; round++) {
        await reset('click-test', 42);
        const [shown, expected] = await taskPage().evaluate(() => {
          const core = (window as unknown as { core: { randi(a: number, b: number): number } }).core;
          const style = document.getElementById('subbtn')!.getAttribute('style');
          (Math as Math & { seedrandom(seed: number): void }).seedrandom(121958);
          const w = core.randi(35, 100);
          const left = core.randi(0, 160 - w - 2);
          const top = core.randi(0, 160 - w - 20);
          return [style, `margin-left:${left}px; margin-top:${top}px; width:${w}px; height:${w}px;`];
        });
        expect(shown).toBe(expected);
      }
    });

    it("use-autocomplete: the menu jQuery UI opens 300 ms after typing is in the step's observation", async () => {
      const first = await reset('use-autocomplete', 7);
      const [, prefix, suffix = ''] = /starts with "([^"]+)"(?: and ends with "([^"]+)")?/.exec(
        first.observation.goal,
      )!;
      const typed = await step(`fill('${bidOf(first, /\[(\w+)\] textbox/)}', '${prefix}')`);
      const items = [
        ...typed.observation.axtree_txt.matchAll(/\[(\w+)\] listitem ''\n(?:\t+.*\n)*?\t+StaticText '([^']+)'/g),
      ];
      const item = items.find((m) => m[2]!.endsWith(suffix));
      expect(item, typed.observation.axtree_txt).toBeDefined();
      await step(`click('${item![1]}')`);
      const result = await step(`click('${bidOf(first, /\[(\w+)\] button 'Submit'/)}')`);
      expect(result).toMatchObject({ reward: 1, done: true });
    });

    it('click-checkboxes: a fractional raw reward is reported as it is; reward is 1 when it is above 0', async () => {
      const first = await reset('click-checkboxes', 7);
      const boxes = [...first.observation.axtree_txt.matchAll(/\[\w+\] checkbox '(\w+)'/g)].map((m) => m[1]!);
      const wanted = /^Select (.*) and click Submit\.$/.exec(first.observation.goal)![1]!;
      const toTick = wanted === 'nothing' ? [] : wanted.split(', ');
      // Submit with nothing ticked: each box is right when it should stay empty, wrong otherwise.
      const result = await step(`click('${bidOf(first, /\[(\w+)\] button 'Submit'/)}')`);
      const raw = (boxes.length - 2 * toTick.length) / boxes.length;
      expect(result.metadata.browsergym_info['raw_reward']).toBeCloseTo(raw, 10);
      expect(result).toMatchObject({ reward: raw > 0 ? 1 : 0, done: true });
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
