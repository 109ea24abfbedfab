import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UsageError } from '@gauntlet/proto/cli';
import { describe, expect, it } from 'vitest';
import type { Demo, DemoStep } from '../report/demo-file.js';
import { openViewSource } from './view-source.js';

// demo.json as `record` writes it: the first step kept its element boxes (marks), the second is
// from a recording made before they were kept (no marks, no picture).
const dir = mkdtempSync(join(tmpdir(), 'view-demo-'));

function step(index: number, action: string, extra: Partial<DemoStep> = {}): DemoStep {
  return {
    index,
    action,
    observation: {
      url: 'http://tasks.gauntlet.test/miniwob/enter-text.html',
      axtree: `RootWebArea 'Enter Text'\n\t[12] textbox ''\n\tStaticText 'step ${index}'`,
      pruned_html: '<input bid="12">',
      screenshot: `screenshots/${index}.png`,
    },
    reward: 0,
    done: false,
    wall_time_s: 1.25 * (index + 1),
    ...extra,
  };
}

const demo: Demo = {
  task: 'enter-text',
  seed: 5,
  goal: 'Enter "Bob" into the text field and press Submit.',
  recorded_at: '2026-01-01T00:00:00.000Z',
  reward: 1,
  done: true,
  steps: [
    step(0, "fill('12', 'Bob')", { marks: [{ kind: 'box', action: 'fill', bid: '12', bbox: [10, 20, 100, 30] }] }),
    step(1, "click('14')", {
      reward: 1,
      done: true,
      observation: { ...step(1, '').observation, screenshot: null },
    }),
  ],
};

function writeDemo(name: string, value: unknown): string {
  const folder = join(dir, name);
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, 'demo.json'), typeof value === 'string' ? value : JSON.stringify(value));
  return folder;
}

describe('view source: demo.json from record', () => {
  it('is one episode whose steps are the recorded actions, with their pages, boxes and rewards', () => {
    const folder = writeDemo('good', demo);
    for (const path of [join(folder, 'demo.json'), folder]) {
      const source = openViewSource(path);
      expect(source).toMatchObject({ root: folder, kind: 'demo' });
      const [episode, ...more] = source.episodes();
      expect(more).toEqual([]);
      expect(episode).toMatchObject({
        id: 'enter-text#5/demo',
        task: 'enter-text',
        seed: 5,
        outcome: 'success',
        reward: 1,
        error: null,
        final_screenshot: null,
        note: expect.stringContaining('goal: Enter "Bob"'),
      });
      const [first, second] = episode!.turns;
      expect(first).toMatchObject({
        index: 0,
        actor: 'person (1.3 s)',
        action: "fill('12', 'Bob')",
        text: null,
        parse_error: false,
        env_error: '',
        screenshot: 'screenshots/0.png',
        marks: [{ kind: 'box', bid: '12', bbox: [10, 20, 100, 30] }],
      });
      expect(first!.page()).toContain("[12] textbox ''");
      // An older recording: the action text only, no box; no picture kept.
      expect(second).toMatchObject({ action: "click('14')", marks: [], screenshot: null, reward: 1, done: true });
    }
  });

  it('a recording stopped before the episode ended is "stopped"; one that ended unrewarded is "fail"', () => {
    const stopped = openViewSource(writeDemo('stopped', { ...demo, done: false, reward: 0 }));
    expect(stopped.episodes()[0]!.outcome).toBe('stopped');
    const failed = openViewSource(writeDemo('failed', { ...demo, reward: 0 }));
    expect(failed.episodes()[0]!.outcome).toBe('fail');
  });

  it('a bad demo.json is a usage error naming the file and what is wrong', () => {
    const cases: [unknown, RegExp][] = [
      ['{"task": ', /^RUN_DIR: \/.*\/bad-0\/demo\.json: cannot read it as JSON/],
      [[], /^RUN_DIR: \/.*\/bad-1\/demo\.json: not a demo\.json from gauntlet-agent record \(not an object\)$/],
      [{ ...demo, seed: 'x' }, /\(seed is not an integer\)$/],
      [{ ...demo, steps: undefined }, /\(steps is not a list\)$/],
      [{ ...demo, steps: [demo.steps[0], { ...demo.steps[1], action: 3 }] }, /\(steps\.1: action is not text\)$/],
      [{ ...demo, steps: [{ ...demo.steps[0], observation: {} }] }, /\(steps\.0: observation has no url or axtree\)$/],
      [{ ...demo, steps: [{ ...demo.steps[0], marks: {} }] }, /\(steps\.0: marks is not a list\)$/],
      [
        { ...demo, web: { url: 'ftp://x/', goal: 'g' } },
        /\(web: url must be an absolute http:\/\/ or https:\/\/ URL\)$/,
      ],
    ];
    cases.forEach(([value, message], i) => {
      const file = join(writeDemo(`bad-${i}`, value), 'demo.json');
      expect(() => openViewSource(file), String(i)).toThrow(UsageError);
      expect(() => openViewSource(file), String(i)).toThrow(message);
    });
    writeFileSync(join(dir, 'other.txt'), 'x');
    expect(() => openViewSource(join(dir, 'other.txt'))).toThrow(
      /RUN_DIR: .*other\.txt is neither a run folder, a demo\.json nor a trajectories \.jsonl file/,
    );
  });
});
