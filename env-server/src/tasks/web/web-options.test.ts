import { MAX_GOAL_REGEX_CHARS, OriginRefusedError, ValidationError } from '@gauntlet/proto';
import { describe, expect, it } from 'vitest';
import { judge, search } from './judge.js';
import { parseWebOptions } from './options.js';

const policy = (...extra: string[]) => ({ extra, allowDataUrls: false });
const fails = (raw: Record<string, unknown>, extra: string[] = ['https://shop.example']) => {
  try {
    parseWebOptions(raw, policy(...extra));
  } catch (error) {
    return error as ValidationError;
  }
  throw new Error('no error');
};

describe('web task options', () => {
  it('takes url, goal, the goal spec and max_steps on an allowed origin', () => {
    const raw = { url: 'https://shop.example/a', goal: 'buy', answer: '\\d+', max_steps: 5 };
    expect(parseWebOptions(raw, policy('https://shop.example'))).toEqual(raw);
  });

  it('a missing or bad url, an empty goal, an unknown key: ValidationError at that option', () => {
    expect(fails({ goal: 'g' }).issues[0]!.loc).toEqual(['body', 'options', 'url']);
    expect(fails({ url: 'file:///etc/passwd', goal: 'g' }).message).toMatch(/options\.url: must be an absolute http/);
    expect(fails({ url: 'not a url', goal: 'g' }).issues[0]!.loc).toEqual(['body', 'options', 'url']);
    expect(fails({ url: 'https://shop.example/', goal: '  ' }).issues[0]!.loc).toEqual(['body', 'options', 'goal']);
    expect(fails({ url: 'https://shop.example/', goal: 'g', no_such_option: 1 }).message).toMatch(/no_such_option/);
    expect(fails({ url: 'https://shop.example/', goal: 'g', max_steps: 0 }).message).toMatch(/options\.max_steps/);
  });

  it('a regex that does not compile, or is too long, is a ValidationError naming its key', () => {
    const bad = fails({ url: 'https://shop.example/', goal: 'g', success_text: '(unclosed' });
    expect(bad).toBeInstanceOf(ValidationError);
    expect(bad.message).toMatch(/options\.success_text: not a valid regular expression/);
    const long = fails({ url: 'https://shop.example/', goal: 'g', answer: 'a'.repeat(MAX_GOAL_REGEX_CHARS + 1) });
    expect(long.issues[0]!.loc).toEqual(['body', 'options', 'answer']);
  });

  it('an origin outside the policy, loopback under *, credentials: OriginRefusedError at options.url', () => {
    for (const [url, extra] of [
      ['https://other.example/', ['https://shop.example']],
      ['http://127.0.0.1:6379/', ['*']],
      ['http://localhost:8000/', ['*']],
      ['http://user@shop.example/', ['http://shop.example']],
    ] as const) {
      const error = fails({ url, goal: 'g' }, [...extra]);
      expect(error, url).toBeInstanceOf(OriginRefusedError);
      expect(error.issues[0]!.loc, url).toEqual(['body', 'options', 'url']);
    }
    // Loopback only when the operator names it exactly.
    expect(parseWebOptions({ url: 'http://127.0.0.1:3000/x', goal: 'g' }, policy('http://127.0.0.1:3000')).url).toBe(
      'http://127.0.0.1:3000/x',
    );
  });
});

describe('judging the final page and answer', () => {
  const final = (answer: string | null) => ({
    url: 'https://shop.example/done',
    text: async () => 'Order 42 placed',
    answer,
  });

  it('every regex of the spec must match: url, page text, answer', async () => {
    const spec = { success_url: '/done$', success_text: 'Order \\d+', answer: '^42$' };
    expect(await judge(spec, final('42'))).toEqual({
      success: true,
      checks: { success_url: true, success_text: true, answer: true },
      reason: '',
    });
    const wrong = await judge(spec, final('41'));
    expect(wrong).toMatchObject({ success: false, checks: { answer: false, success_url: true } });
    expect(wrong.reason).toBe('answer does not match the answer');
  });

  it('an infeasible report never succeeds, and the page text is read only when asked for', async () => {
    let read = 0;
    const verdict = await judge(
      { success_url: 'done' },
      { url: 'https://x/done', text: async () => `${read++}`, answer: null },
    );
    expect(verdict).toMatchObject({ success: false, checks: { success_url: true } });
    expect(verdict.reason).toMatch(/reported the goal infeasible/);
    expect(read).toBe(0);
  });

  it('a regex that backtracks without end fails its check within its budget instead of holding the server', () => {
    const started = performance.now();
    expect(search('(a+)+$', `${'a'.repeat(40)}!`, 50)).toBe('over_budget');
    expect(performance.now() - started).toBeLessThan(2000);
    expect(search('b(c)', 'abcd')).toBe(true);
  });
});
