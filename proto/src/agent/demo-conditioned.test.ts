import { describe, expect, it } from 'vitest';
import { demoConditionedCopies, episodeActions, type EpisodeRecord } from './demo-conditioned.js';
import { DEFAULT_DEMONSTRATION_TEMPLATE, demonstrationText, withDemonstration } from './demonstration.js';

const episode = (task: string, seed: number, actions: string[]): EpisodeRecord => ({
  task,
  seed,
  messages: [
    { role: 'system', content: 'You act in a browser.' },
    ...actions.flatMap((action, i) => [
      { role: 'user' as const, content: `# Goal\n${task} seed ${seed} turn ${i}` },
      { role: 'assistant' as const, content: action },
    ]),
  ],
});

const shown = (observation: string, actions: string[]) =>
  withDemonstration(observation, { text: demonstrationText(actions), template: DEFAULT_DEMONSTRATION_TEMPLATE });

describe('demo-conditioned copies of SFT records', () => {
  const a0 = episode('login-user', 0, ["fill('3', 'ann')", "click('7')"]);
  const a1 = episode('login-user', 1, ["fill('4', 'bob')", "click('9')"]);
  const b0 = episode('click-test', 0, ["click('5')"]);

  it("shows each episode another seed's actions on every observation, and keeps the rest", () => {
    const [c0, c1] = demoConditionedCopies([a0, a1], DEFAULT_DEMONSTRATION_TEMPLATE);
    expect(c0!.messages).toEqual([
      a0.messages[0],
      { role: 'user', content: shown('# Goal\nlogin-user seed 0 turn 0', episodeActions(a1)) },
      a0.messages[2],
      { role: 'user', content: shown('# Goal\nlogin-user seed 0 turn 1', episodeActions(a1)) },
      a0.messages[4],
    ]);
    expect(c1!.messages[1]!.content).toBe(
      shown('# Goal\nlogin-user seed 1 turn 0', ["fill('3', 'ann')", "click('7')"]),
    );
    expect(c0).toMatchObject({ task: 'login-user', seed: 0 });
  });

  it('takes the demo from the same task only, and gives a task with one seed no copy', () => {
    const copies = demoConditionedCopies([a0, b0, a1], DEFAULT_DEMONSTRATION_TEMPLATE);
    expect(copies.map((c) => [c.task, c.seed])).toEqual([
      ['login-user', 0],
      ['login-user', 1],
    ]);
    expect(copies[0]!.messages[1]!.content).not.toContain("click('5')");
    expect(demoConditionedCopies([b0, { ...b0 }], DEFAULT_DEMONSTRATION_TEMPLATE)).toEqual([]);
  });

  it('leaves its input as it was', () => {
    const before = structuredClone(a0);
    demoConditionedCopies([a0, a1], DEFAULT_DEMONSTRATION_TEMPLATE);
    expect(a0).toEqual(before);
  });

  it("shows the element each of the demo's actions acted on, as the demo's own page showed it", () => {
    const page = (seed: number, lines: string) => ({ role: 'user', content: `# Goal\nClose it (${seed})\n${lines}` });
    const record = (seed: number, bid: string): EpisodeRecord => ({
      task: 'click-dialog',
      seed,
      messages: [
        page(seed, `[${bid}] button '×'\n[2] dialog 'deer'`),
        { role: 'assistant', content: `click('${bid}')` },
      ],
    });
    const [copy] = demoConditionedCopies([record(0, '8'), record(1, '9')], DEFAULT_DEMONSTRATION_TEMPLATE);
    expect(copy!.messages[0]!.content).toContain("1. click('9') on button '×'\n");
    expect(copy!.messages[0]!.content).toContain("[8] button '×'");
  });
});
