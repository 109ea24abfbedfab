import type { DpoRecord } from '@gauntlet/proto';
import { describe, expect, it } from 'vitest';
import { parseDpoJsonl } from './data.js';

const sys = { role: 'system' as const, content: 'Act.' };
const user = { role: 'user' as const, content: 'obs' };
const reply = (content: string) => ({ role: 'assistant' as const, content });
const parse = (...lines: unknown[]) =>
  parseDpoJsonl('d.jsonl', lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n'));

describe('parseDpoJsonl', () => {
  it("reads the Gauntlet collect's explicit-prompt pairs: prompt as context, each completion trained", () => {
    const record: DpoRecord = {
      id: 'gauntlet#2/step3.dpo0',
      episode: 'gauntlet#2',
      task: 'gauntlet',
      seed: 2,
      step: 3,
      type: 'encrypted',
      prompt: [sys, user],
      chosen: [{ ...reply('click("5")'), reward: 1 }],
      rejected: [reply('click("9")')],
      rejected_outcome: 'wrong code',
    };
    const [pair] = parse(record);
    expect(pair).toEqual({
      line: 1,
      chosen: {
        line: 1,
        kind: 'chat',
        messages: [sys, user, { ...reply('click("5")'), reward: 1 }],
        trained: [false, false, true],
      },
      rejected: { line: 1, kind: 'chat', messages: [sys, user, reply('click("9")')], trained: [false, false, true] },
    });
  });

  it('takes the shared leading messages as the prompt when there is none (implicit prompt)', () => {
    const [pair] = parse('', { chosen: [user, reply('a')], rejected: [user, reply('b')] });
    expect(pair!.line).toBe(2);
    expect(pair!.chosen).toMatchObject({ messages: [user, reply('a')], trained: [false, true] });
    expect(pair!.rejected).toMatchObject({ messages: [user, reply('b')], trained: [false, true] });
  });

  it('reads plain-text pairs as two prompt/completion records', () => {
    const [pair] = parse({ prompt: 'Q: ', chosen: 'yes', rejected: 'no' });
    expect(pair!.chosen).toEqual({ line: 1, kind: 'text', prompt: 'Q: ', completion: 'yes' });
    expect(pair!.rejected).toEqual({ line: 1, kind: 'text', prompt: 'Q: ', completion: 'no' });
  });

  it.each([
    ['[1]', 'd.jsonl:1: must be a JSON object with "chosen" and "rejected" (got [1])'],
    ['{"prompt": "q", "chosen": "a"}', 'd.jsonl:1: needs "chosen" and "rejected" (got keys ["prompt","chosen"])'],
    ['{"prompt": "q", "chosen": "a", "rejected": 3}', 'd.jsonl:1: rejected must be a string or a list of messages'],
    ['{"chosen": "a", "rejected": "b"}', 'd.jsonl:1: prompt must be a string like the other fields of a text pair'],
    ['{"prompt": "q", "chosen": "", "rejected": "b"}', 'd.jsonl:1: chosen is empty (nothing to compare)'],
    [
      JSON.stringify({ prompt: 'q', chosen: [reply('a')], rejected: [reply('b')] }),
      'd.jsonl:1: prompt must be a list of messages like chosen and rejected (got "q")',
    ],
    [
      JSON.stringify({ prompt: [user], chosen: [reply('a')], rejected: [{ role: 'bot', content: 'b' }] }),
      'd.jsonl:1: rejected[0].role must be one of "system", "user", "assistant" (got "bot")',
    ],
    [
      JSON.stringify({ prompt: [user], chosen: [user], rejected: [reply('b')] }),
      'd.jsonl:1: chosen has no assistant message to compare',
    ],
    [
      JSON.stringify({ prompt: [reply('hi')], chosen: [reply('a')], rejected: [reply('b')] }),
      'd.jsonl:1: prompt[0] is an assistant turn with nothing before it',
    ],
    [
      JSON.stringify({ chosen: [user, reply('a')], rejected: [sys, reply('b')] }),
      'd.jsonl:1: has no "prompt" and chosen and rejected share no first message to take as one',
    ],
    ['{"prompt": ', 'd.jsonl:1: is not valid JSON'],
  ])('%s → %s', (text, message) => {
    expect(() => parse(text)).toThrow(message);
  });

  it('says an SFT file is not preference data and which command takes it', () => {
    const sft =
      'is an SFT example ("messages", or "prompt" and "completion"), not a preference pair: train it with `gauntlet-trainer sft`';
    expect(() => parse({ messages: [{ role: 'user', content: 'q' }] })).toThrow(`d.jsonl:1: ${sft}`);
    expect(() => parse({ prompt: 'q', completion: 'a' })).toThrow(`d.jsonl:1: ${sft}`);
  });

  it('names the line of the bad record, blank lines counted', () => {
    const good = { prompt: 'q', chosen: 'a', rejected: 'b' };
    expect(() => parse(good, '', { ...good, chosen: [] })).toThrow('d.jsonl:3: ');
  });
});
