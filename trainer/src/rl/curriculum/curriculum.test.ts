import { describe, expect, it } from 'vitest';
import { Curriculum, DEFAULT_CURRICULUM } from './curriculum.js';
import { TaskSampler } from './task-sampler.js';
import { parseTaskSpec, parseTaskSpecs } from './task-spec.js';

const ok = (n: number) => Array.from({ length: n }, () => true);
const bad = (n: number) => Array.from({ length: n }, () => false);

describe('task specs', () => {
  it('read NAME[=WEIGHT], weight 1 by default', () => {
    expect(parseTaskSpec('miniwob.click-test')).toEqual({ name: 'miniwob.click-test', weight: 1 });
    expect(parseTaskSpec('miniwob.enter-text=2.5')).toEqual({ name: 'miniwob.enter-text', weight: 2.5 });
    // Gauntlet challenge types, as `gauntlet-env tasks` lists them, weighted like any task.
    expect(parseTaskSpecs(['gauntlet.gauntlet:timer=3', 'gauntlet:canvas'])).toEqual([
      { name: 'gauntlet.gauntlet:timer', weight: 3 },
      { name: 'gauntlet:canvas', weight: 1 },
    ]);
  });
  it('refuse bad weights, bad names and a task given twice', () => {
    expect(() => parseTaskSpec('a=0')).toThrow(/weight after "=" must be a number > 0/);
    expect(() => parseTaskSpec('a=x')).toThrow(/weight/);
    expect(() => parseTaskSpec('a b')).toThrow(/name must be/);
    expect(() => parseTaskSpecs(['a', 'b=2', 'a=3'])).toThrow(/"a" is given twice/);
  });
});

describe('Curriculum', () => {
  it('favours tasks whose recent success is neither 0 nor 1; unseen tasks weigh 1', () => {
    const c = new Curriculum();
    c.record('solved', ok(8));
    c.record('hopeless', bad(8));
    c.record('learning', [true, false, true, false]);
    expect(c.factor('unseen')).toBe(1);
    expect(c.factor('learning')).toBeCloseTo(1, 12);
    expect(c.factor('solved')).toBeCloseTo(DEFAULT_CURRICULUM.floor, 12);
    expect(c.factor('hopeless')).toBeCloseTo(DEFAULT_CURRICULUM.floor, 12);
    expect(new Curriculum({ ...DEFAULT_CURRICULUM, enabled: false }).factor('x')).toBe(1);
  });

  it('keeps only the last `window` outcomes', () => {
    const c = new Curriculum({ ...DEFAULT_CURRICULUM, window: 4 });
    c.record('t', bad(10));
    c.record('t', ok(3));
    expect(c.successRate('t')).toBeCloseTo(0.75, 12);
  });

  it('moves the Gauntlet start_step earlier on success and later on failure, within [0, startStep]', () => {
    const c = new Curriculum({ ...DEFAULT_CURRICULUM, window: 4, startStep: 3 });
    expect(c.resetOptions('gauntlet.gauntlet')).toEqual({ start_step: 3 });
    expect(c.resetOptions('miniwob.click-test')).toEqual({});
    c.record('gauntlet.gauntlet', ok(4), 3);
    expect(c.resetOptions('gauntlet.gauntlet')).toEqual({ start_step: 2 });
    // A late group played from the old start step moves nothing.
    c.record('gauntlet.gauntlet', bad(4), 3);
    expect(c.resetOptions('gauntlet.gauntlet')).toEqual({ start_step: 2 });
    c.record('gauntlet.gauntlet', bad(4), 2);
    expect(c.resetOptions('gauntlet.gauntlet')).toEqual({ start_step: 3 });
    c.record('gauntlet.gauntlet', bad(4), 3);
    expect(c.resetOptions('gauntlet.gauntlet')).toEqual({ start_step: 3 });
  });

  it('a single Gauntlet challenge type has no start_step curriculum: it is one step', () => {
    const c = new Curriculum({ ...DEFAULT_CURRICULUM, startStep: 3 });
    for (const task of ['gauntlet.gauntlet:timer', 'gauntlet:canvas', 'miniwob.click-test'])
      expect(c.resetOptions(task)).toEqual({});
    for (const task of ['gauntlet.gauntlet', 'gauntlet', 'browsergym/gauntlet'])
      expect(c.resetOptions(task)).toEqual({ start_step: 3 });
  });

  it('state round-trips', () => {
    const c = new Curriculum({ ...DEFAULT_CURRICULUM, startStep: 5 });
    c.record('a', [true, false]);
    c.record('gauntlet.g', ok(32), 5);
    const copy = new Curriculum({ ...DEFAULT_CURRICULUM, startStep: 5 });
    copy.restore(JSON.parse(JSON.stringify(c.state())));
    expect(copy.state()).toEqual(c.state());
    expect(copy.resetOptions('gauntlet.g')).toEqual({ start_step: 4 });
  });
});

describe('TaskSampler', () => {
  const tasks = parseTaskSpecs(['a=3', 'b=1']);

  it('draws tasks in proportion to their weights', () => {
    const sampler = new TaskSampler(tasks, new Curriculum(), 1);
    const counts = { a: 0, b: 0 } as Record<string, number>;
    for (let i = 0; i < 4000; i++) counts[sampler.next().task]!++;
    expect(counts['a']! / 4000).toBeGreaterThan(0.7);
    expect(counts['a']! / 4000).toBeLessThan(0.8);
  });

  it('shifts groups towards the task that is still being learned', () => {
    const curriculum = new Curriculum();
    curriculum.record('a', ok(32));
    curriculum.record('b', [true, false]);
    const p = new TaskSampler(tasks, curriculum, 1).probabilities();
    expect(p.get('b')!).toBeGreaterThan(p.get('a')!);
    expect(p.get('a')! + p.get('b')!).toBeCloseTo(1, 12);
  });

  it('same seed and restored stream state, same draws', () => {
    const first = new TaskSampler(tasks, new Curriculum(), 42);
    first.next();
    const state = first.stream.state;
    const rest = [first.next(), first.next(), first.next()];
    const resumed = new TaskSampler(tasks, new Curriculum(), 0);
    resumed.stream.state = state;
    expect([resumed.next(), resumed.next(), resumed.next()]).toEqual(rest);
    expect(rest.every((d) => Number.isInteger(d.seed) && d.seed >= 0)).toBe(true);
  });

  it("a task's own reset options (sdft --url/--goal) ride on each of its draws, over the curriculum's", () => {
    const web = { name: 'web', weight: 1, resetOptions: { url: 'https://shop.example/', goal: 'Order a mug' } };
    const gauntlet = { name: 'gauntlet', weight: 1, resetOptions: { start_step: 2 } };
    const curriculum = new Curriculum({ ...DEFAULT_CURRICULUM, startStep: 5 });
    expect(curriculum.resetOptions('gauntlet')).toEqual({ start_step: 5 });
    const sampler = new TaskSampler([web, gauntlet], curriculum, 3);
    const draws = Array.from({ length: 20 }, () => sampler.next());
    expect(new Set(draws.map((d) => d.task))).toEqual(new Set(['web', 'gauntlet']));
    for (const d of draws) expect(d.resetOptions).toEqual(d.task === 'web' ? web.resetOptions : { start_step: 2 });
  });
});
