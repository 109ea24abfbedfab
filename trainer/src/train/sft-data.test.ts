import type { SftRecord } from '@gauntlet/proto';
import { describe, expect, it } from 'vitest';
import { DataFileError, parseSftJsonl } from './sft-data.js';

const jsonl = (...lines: unknown[]) => lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n');
const user = (content: string) => ({ role: 'user' as const, content });
const assistant = (content: string) => ({ role: 'assistant' as const, content });

describe('parseSftJsonl', () => {
  it("reads proto's SftRecord, as collectors write it: every assistant turn trained, rewards ride along, its task, step type and seed kept", () => {
    const record: SftRecord = {
      id: 'gauntlet:timer#4/step1.0',
      episode: 'gauntlet:timer#4',
      task: 'gauntlet:timer',
      seed: 4,
      step: 1,
      type: 'timer',
      reward: 1,
      messages: [{ role: 'system', content: 's' }, user('obs'), { ...assistant('click("5")'), reward: 1 }],
    };
    expect(parseSftJsonl('sft.jsonl', jsonl(record))).toEqual([
      {
        line: 1,
        kind: 'chat',
        messages: record.messages,
        trained: [false, false, true],
        origin: { task: 'gauntlet:timer timer', seed: 4 },
      },
    ]);
    // A record that breaks the schema is read field by field, with the trainer's own message.
    const badRole = { ...record, messages: [...record.messages, { role: 'tool', content: 'x' }] };
    expect(() => parseSftJsonl('sft.jsonl', jsonl(badRole))).toThrow(
      'sft.jsonl:1: messages[3].role must be one of "system", "user", "assistant" (got "tool")',
    );
  });

  it('reads chat lines (assistant turns trained), text and conversational prompt/completion lines; skips blank lines', () => {
    const records = parseSftJsonl(
      'd.jsonl',
      jsonl(
        {
          messages: [{ role: 'system', content: 's' }, user('q'), assistant('a'), user('q2'), assistant('a2')],
          task: 'click-test',
        },
        '',
        { prompt: 'p', completion: 'c' },
        { prompt: [user('hi'), assistant('earlier')], completion: [assistant('hello')] },
        '   ',
      ),
    );
    expect(records).toEqual([
      {
        line: 1,
        kind: 'chat',
        messages: [{ role: 'system', content: 's' }, user('q'), assistant('a'), user('q2'), assistant('a2')],
        trained: [false, false, true, false, true],
      },
      { line: 3, kind: 'text', prompt: 'p', completion: 'c' },
      {
        line: 4,
        kind: 'chat',
        messages: [user('hi'), assistant('earlier'), assistant('hello')],
        trained: [false, false, true],
      },
    ]);
  });

  it.each([
    ['{"messages": [', 'd.jsonl:2: is not valid JSON'],
    [[1, 2], 'd.jsonl:2: must be a JSON object with "messages", or "prompt" and "completion" (got [1,2])'],
    [{ text: 'x' }, 'd.jsonl:2: needs "messages", or "prompt" and "completion" (got keys ["text"])'],
    [{ messages: [], prompt: 'x' }, 'd.jsonl:2: has both "messages" and "prompt"/"completion"; use one form per line'],
    [{ messages: [] }, 'd.jsonl:2: messages must be a non-empty list of {"role", "content"} objects (got [])'],
    [{ messages: [user('q'), 'a'] }, 'd.jsonl:2: messages[1] must be an object with "role" and "content" (got "a")'],
    [
      { messages: [user('q'), { role: 'tool', content: 'x' }] },
      'd.jsonl:2: messages[1].role must be one of "system", "user", "assistant" (got "tool")',
    ],
    [
      { messages: [user('q'), { role: 'assistant', content: 5 }] },
      'd.jsonl:2: messages[1].content must be a string (got 5)',
    ],
    [{ messages: [user('q'), user('r')] }, 'd.jsonl:2: messages has no assistant turn to train on'],
    [{ messages: [assistant('a'), user('q')] }, 'd.jsonl:2: messages[0] is an assistant turn with nothing before it'],
    [{ prompt: 'p' }, 'd.jsonl:2: completion must be a string or a list of messages (got nothing)'],
    [{ prompt: 3, completion: 'c' }, 'd.jsonl:2: prompt must be a string or a list of messages (got 3)'],
    [{ prompt: 'p', completion: '' }, 'd.jsonl:2: completion is empty (nothing to train on)'],
    [
      { prompt: [user('q')], completion: 'a' },
      'd.jsonl:2: completion must be a list of messages like prompt (got "a")',
    ],
    [
      { prompt: [user('q')], completion: [user('not a reply')] },
      'd.jsonl:2: completion has no assistant turn to train on',
    ],
    [
      { prompt: [user('q')], chosen: [assistant('a')], rejected: [assistant('b')] },
      'd.jsonl:2: is a preference pair ("chosen"/"rejected"), not an SFT example: train it with `gauntlet-trainer dpo`',
    ],
  ])('line %j → %s', (line, message) => {
    const text = jsonl({ prompt: 'ok', completion: 'fine' }, line);
    expect(() => parseSftJsonl('d.jsonl', text)).toThrow(message);
  });

  it('errors carry file, line and field for tools, and an empty file says it holds nothing', () => {
    try {
      parseSftJsonl('d.jsonl', jsonl({ messages: [user('q'), { role: 'bot', content: '' }] }));
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(DataFileError);
      expect((error as DataFileError).toWire()).toMatchObject({
        code: 'VALIDATION_ERROR',
        details: { file: 'd.jsonl', line: 1, field: 'messages[1].role' },
      });
    }
    expect(() => parseSftJsonl('d.jsonl', '\n\n')).toThrow(
      'd.jsonl: holds no examples (expected one JSON object per line)',
    );
  });
});
