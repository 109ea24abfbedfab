import { DEFAULT_DEMONSTRATION_TEMPLATE } from '@gauntlet/proto/agent';
import { describe, expect, it } from 'vitest';
import { parseSftJsonl } from './sft-data.js';
import { withDemoCopies } from './sft-demo-copies.js';

const record = (task: string, type: string, seed: number, action: string) =>
  JSON.stringify({
    id: `${task}-${seed}`,
    episode: `e${seed}`,
    task,
    seed,
    step: 0,
    type,
    reward: 1,
    messages: [
      { role: 'system', content: 'Act.' },
      { role: 'user', content: `goal ${seed}` },
      { role: 'assistant', content: action },
    ],
  });

describe('sft --demo-conditioned copies', () => {
  it('copies collect records of one task and step type after the originals, keeping line numbers and trained turns', () => {
    const lines = parseSftJsonl(
      'd.jsonl',
      [
        record('gauntlet', 'otp', 0, "fill('2', '1234')"),
        JSON.stringify({ prompt: 'a', completion: 'b' }),
        record('gauntlet', 'slider', 1, "click('8')"),
        record('gauntlet', 'otp', 1, "fill('3', '9876')"),
      ].join('\n'),
    );
    const { lines: out, copies } = withDemoCopies(lines, DEFAULT_DEMONSTRATION_TEMPLATE);
    expect(copies).toBe(2);
    expect(out.slice(0, 4)).toEqual(lines);
    const added = out.slice(4);
    expect(added.map((l) => l.line)).toEqual([1, 4]);
    for (const copy of added) {
      if (copy.kind !== 'chat') throw new Error('a copy is a conversation');
      expect(copy.trained).toEqual([false, false, true]);
    }
    const [first, second] = added as Extract<(typeof added)[number], { kind: 'chat' }>[];
    expect(first!.messages[1]!.content).toContain("1. fill('3', '9876')");
    expect(first!.messages[1]!.content).toMatch(/goal 0$/);
    expect(second!.messages[1]!.content).toContain("1. fill('2', '1234')");
    expect(first!.messages[2]).toEqual({ role: 'assistant', content: "fill('2', '1234')" });
  });
});
