import type { TurnInput } from '@gauntlet/proto/agent';
import { EpisodeSettings } from '@gauntlet/proto/rollout';
import { describe, expect, it } from 'vitest';
import { PolicyPool, replyRegex, UnknownPolicyServerError } from './policy-pool.js';

const policy = { model: 'tiny', adapter: 'run@v3', version: 3 };

describe('PolicyPool', () => {
  it("takes the worker's own servers in turn when a job names none", () => {
    const pool = new PolicyPool(['http://a:1', 'http://b:2']);
    const settings = EpisodeSettings.parse({});
    expect([0, 1, 2].map(() => pool.forEpisode(policy, settings).server)).toEqual([
      'http://a:1',
      'http://b:2',
      'http://a:1',
    ]);
  });

  it("samples only from the servers the job names (the trainer's rotation), by name or index", () => {
    const pool = new PolicyPool(['http://a:1', 'gpu-b=http://10.0.0.2:8000', 'http://c:3']);
    expect(pool.names).toEqual(['a:1=http://a:1', 'gpu-b=http://10.0.0.2:8000', 'c:3=http://c:3']);
    const settings = EpisodeSettings.parse({ policy_servers: ['gpu-b', 2] });
    const servers = [0, 1, 2, 3].map(() => pool.forEpisode(policy, settings).server);
    expect(new Set(servers)).toEqual(new Set(['http://10.0.0.2:8000', 'http://c:3']));
  });

  it('a job naming a server the worker lacks is a bad job (never a new URL to call)', () => {
    const pool = new PolicyPool(['http://a:1']);
    for (const ref of ['b:2', 1]) {
      const settings = EpisodeSettings.parse({ policy_servers: [ref] });
      expect(() => pool.forEpisode(policy, settings)).toThrow(UnknownPolicyServerError);
    }
    expect(() =>
      new PolicyPool(['random']).forEpisode(policy, EpisodeSettings.parse({ policy_servers: ['a:1'] })),
    ).toThrow(/plays the random baseline and has none/);
    expect(() => new PolicyPool(['x=http://a:1', 'x=http://b:2'])).toThrow(/two policy servers are named "x"/);
  });

  it('a random-policy worker still plays the random baseline without policy_servers', () => {
    const pool = new PolicyPool(['random']);
    expect(pool.forEpisode(policy, EpisodeSettings.parse({})).server).toBe('random');
  });

  it('with bid_choices, each turn may name every allowed action, on the bids its page shows', () => {
    const turn = (tree: string) =>
      ({ index: 0, observation: '', result: { observation: { axtree_txt: tree } } }) as unknown as TurnInput;
    const full = (source: string) => new RegExp(`^(?:${source})$`);
    const regexFor = (settings: object) => replyRegex(EpisodeSettings.parse({ constrained: true, ...settings }));
    const everyAction = regexFor({ bid_choices: true }) as (t: TurnInput) => string;
    const page = full(everyAction(turn("\t[5] button 'Click Me!'")));
    for (const ok of ["click('5')", "fill('5', 'x')", 'scroll(0, 10)', 'noop()']) expect(page.test(ok), ok).toBe(true);
    expect(page.test("click('6')")).toBe(false);
    const empty = full(everyAction(turn("StaticText 'nothing to click'")));
    expect([empty.test('noop()'), empty.test("click('5')")]).toEqual([true, false]);
    const clicksOnly = regexFor({ bid_choices: true, action_names: ['click'] }) as (t: TurnInput) => string;
    expect(full(clicksOnly(turn("StaticText 'none'"))).test('noop()')).toBe(true);
    expect(full(regexFor({ action_names: ['click'] }) as string).test("click('anything')")).toBe(true);
  });

  it("with text_choices, each turn's fill types only a value its goal quotes", () => {
    const turn = {
      index: 0,
      observation: '',
      result: { observation: { goal: 'Enter "Lima".', axtree_txt: "\t[5] textbox ''" } },
    };
    const typed = replyRegex(EpisodeSettings.parse({ constrained: true, text_choices: true })) as (
      t: TurnInput,
    ) => string;
    const regex = new RegExp(`^(?:${typed(turn as unknown as TurnInput)})$`);
    expect([regex.test("fill('5', 'Lima')"), regex.test("fill('5', 'Lim')"), regex.test("fill('9', 'Lima')")]).toEqual([
      true,
      false,
      true,
    ]);
  });
});
