import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DropLog } from './drop-log.js';

describe('DropLog', () => {
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());

  const reason = (group: string, attempt: number) =>
    `episode ${group}.1 hit an infrastructure error after 0 turns on attempt ${attempt}: PolicyError: connect ECONNREFUSED 127.0.0.1:9`;

  it('the first drop of a reason is a line at once; the rest within the window one line with the count', () => {
    const lines: string[] = [];
    const drops = new DropLog((line) => lines.push(`grpo: ${line}`), 10_000);
    drops.dropped('run-a-0', reason('run-a-0', 3));
    expect(lines).toEqual([`grpo: group run-a-0 dropped by the workers: ${reason('run-a-0', 3)}`]);
    for (const id of ['run-a-1', 'run-a-2', 'run-a-3']) drops.dropped(id, reason(id, 3));
    drops.dropped('run-a-4', 'episode run-a-4.0 cannot be played: Unknown task "x"');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toBe(
      'grpo: group run-a-4 dropped by the workers: episode run-a-4.0 cannot be played: Unknown task "x"',
    );
    vi.advanceTimersByTime(10_000);
    expect(lines.slice(2)).toEqual([
      `grpo: 3 more group(s) dropped by the workers in the last 10 s: ${reason('run-a-3', 3)}`,
    ]);
    // Still dropping: counted in the next window; a quiet window closes the reason's run.
    drops.dropped('run-a-5', reason('run-a-5', 3));
    vi.advanceTimersByTime(10_000);
    expect(lines.slice(3)).toEqual([
      `grpo: 1 more group(s) dropped by the workers in the last 10 s: ${reason('run-a-5', 3)}`,
    ]);
    vi.advanceTimersByTime(10_000);
    drops.dropped('run-a-6', reason('run-a-6', 3));
    expect(lines.slice(4)).toEqual([`grpo: group run-a-6 dropped by the workers: ${reason('run-a-6', 3)}`]);
  });

  it('close tells what is still counted, and nothing fires after it', () => {
    const lines: string[] = [];
    const drops = new DropLog((line) => lines.push(`grpo: ${line}`), 10_000);
    drops.dropped('g-0', 'the env rejected this task');
    drops.dropped('g-1', 'the env rejected this task');
    drops.close();
    expect(lines).toEqual([
      'grpo: group g-0 dropped by the workers: the env rejected this task',
      'grpo: 1 more group(s) dropped by the workers in the last 10 s: the env rejected this task',
    ]);
    vi.advanceTimersByTime(60_000);
    expect(lines).toHaveLength(2);
  });
});
