import { BROWSER_SYSTEM_PROMPT, DEFAULT_DEMONSTRATION_TEMPLATE, demonstrationText } from '@gauntlet/proto/agent';
import { describe, expect, it } from 'vitest';
import type { TemplateMessage } from '../../model/chat-template.js';
import { distillPairs } from './distill-pairs.js';
import { episode, group, turn } from '../../../test/support/trajectories.js';

const policy = { model: 'tiny', adapter: 'run@v1', version: 1 };
const demonstration = demonstrationText(["click('4')"]);

/** A stand-in chat template that keeps what it was given: the messages, JSON, then one id per character. */
const encode = (messages: TemplateMessage[]) => [...JSON.stringify(messages)].map((c) => c.charCodeAt(0));
const decode = (ids: readonly number[]) => JSON.parse(String.fromCharCode(...ids)) as TemplateMessage[];

/** Three turns: two sampled, the middle one scripted (no tokens); the last trimmed its first exchange. */
function played() {
  const turns = [
    turn(0, {
      observation: 'o0',
      action_text: "click('1')",
      completion_ids: [10, 11],
      logprobs: [-1, -1],
      env_ids: [20],
    }),
    turn(1, { observation: 'o1', action_text: 'noop()', env_ids: [21, 22] }),
    turn(2, {
      observation: 'o2',
      action_text: "click('4')",
      completion_ids: [12],
      logprobs: [-1],
      trimmed_exchanges: 1,
      done: true,
    }),
  ];
  return { ...group('g', [1], policy), trajectories: [episode('g', 0, turns, 1)] };
}

describe('TrajectoryGroup → SDFT pairs', () => {
  it('is token-exact on the student side, and puts the demonstration in the teacher’s last user turn', () => {
    const { pairs, unsampled, tooLong } = distillPairs([played()], {
      encode,
      demonstration,
      template: DEFAULT_DEMONSTRATION_TEMPLATE,
      maxLength: 10_000,
    });
    expect([unsampled, tooLong]).toEqual([1, 0]);
    // Turn 0 from the first prompt; turn 2 from it plus the exchanges it kept (turn 1's), as the worker sampled.
    expect(pairs.map((p) => [p.student, p.completion])).toEqual([
      [
        [1, 2, 3],
        [10, 11],
      ],
      [[1, 2, 3, 21, 22], [12]],
    ]);
    const system = { role: 'system', content: BROWSER_SYSTEM_PROMPT };
    const withDemo = (observation: string) =>
      DEFAULT_DEMONSTRATION_TEMPLATE.replace('{demonstration}', demonstration).replace('{observation}', observation);
    expect(decode(pairs[0]!.teacher)).toEqual([system, { role: 'user', content: withDemo('o0') }]);
    // Trimmed: turn 0's exchange (its reply and the observation after it) is left out, as TokenHistory left it out.
    expect(decode(pairs[1]!.teacher)).toEqual([
      system,
      { role: 'user', content: 'o0' },
      { role: 'assistant', content: 'noop()' },
      { role: 'user', content: withDemo('o2') },
    ]);
  });

  it('leaves out a turn whose teacher prompt and completion exceed the limit, and counts it', () => {
    const all = distillPairs([played()], {
      encode,
      demonstration,
      template: '{demonstration}{observation}',
      maxLength: 10_000,
    });
    const shortest = Math.min(...all.pairs.map((p) => p.teacher.length + p.completion.length));
    const cut = distillPairs([played()], {
      encode,
      demonstration,
      template: '{demonstration}{observation}',
      maxLength: shortest,
    });
    expect([cut.pairs.length, cut.tooLong, cut.unsampled]).toEqual([1, 1, 1]);
  });
});
