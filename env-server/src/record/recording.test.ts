import { EpisodeStateError, type StepResult } from '@gauntlet/proto';
import { describe, expect, it } from 'vitest';
import type { PlayingInput } from './record-in-page.js';
import { Recording } from './recording.js';

/** A StepResult with just what Recording reads: reward, done, and a url to tell pages apart. */
const page = (url: string, reward = 0, done = false) =>
  ({ observation: { url }, reward, done, metadata: {} }) as unknown as StepResult;

function recording(outcomes: Record<string, StepResult | Error>) {
  const played: [string, PlayingInput | undefined][] = [];
  const taken = new Recording(page('start'), performance.now(), async (action, input) => {
    played.push([action, input]);
    const outcome = outcomes[action]!;
    if (outcome instanceof Error) throw outcome;
    return outcome;
  });
  return { taken, played };
}

describe('Recording', () => {
  it('hands out steps in order, each with the page before it and the reward after it', async () => {
    const { taken, played } = recording({
      "fill('3', 'Bob')": page('after fill'),
      "click('5')": page('after click', 1, true),
    });
    taken.onInput({ kind: 'fill', bid: '3', value: 'Bob' });
    taken.onInput({ kind: 'click', bid: '5' });
    const first = await taken.next(5_000);
    const second = await taken.next(5_000);
    expect(first).toMatchObject({ step: { index: 0, action: "fill('3', 'Bob')", reward: 0, done: false } });
    expect(first.step!.before.observation.url).toBe('start');
    expect(second).toMatchObject({ step: { index: 1, action: "click('5')", reward: 1, done: true }, recording: false });
    expect(second.step!.before.observation.url).toBe('after fill');
    // The click was stopped in the page: the env plays it, expecting that one event as its own.
    expect(played).toEqual([
      ["fill('3', 'Bob')", undefined],
      ["click('5')", { kind: 'click', bid: '5', key: undefined }],
    ]);
  });

  it('answers step null after the wait when nothing happened, and ignores what it cannot map', async () => {
    const { taken, played } = recording({});
    taken.onInput({ kind: 'click', bid: null });
    taken.onInput('not an input');
    expect(await taken.next(20)).toEqual({ step: null, recording: true });
    expect(played).toEqual([]);
  });

  it('a cancelled fetch returns at once; a stopped recording records nothing more', async () => {
    const { taken, played } = recording({ "click('1')": page('x') });
    const cancel = new AbortController();
    const waiting = taken.next(60_000, cancel.signal);
    cancel.abort();
    expect(await waiting).toEqual({ step: null, recording: true });
    taken.stop();
    taken.onInput({ kind: 'click', bid: '1' });
    expect(await taken.next(60_000)).toEqual({ step: null, recording: false });
    expect(played).toEqual([]);
  });

  it('an episode that cannot go on ends the recording with its error', async () => {
    const { taken } = recording({ "click('1')": new EpisodeStateError('The episode is over') });
    taken.onInput({ kind: 'click', bid: '1' });
    await expect(taken.next(5_000)).rejects.toThrow('The episode is over');
  });

  it("the browser's own navigations become steps; one a played click caused is absorbed by that click", async () => {
    // What the history shows at each look; every step looks once after it (absorbing what it did).
    const looks = [[], ["goto('http://site/b')"], [], ['go_back()'], []];
    let closed = 0;
    const navigations = { changes: async () => looks.shift() ?? [], close: async () => void closed++ };
    const played: string[] = [];
    const taken = new Recording(
      page('start'),
      performance.now(),
      async (action) => (played.push(action), page(`after ${action}`)),
      navigations,
    );
    taken.onInput({ kind: 'click', bid: '2' });
    taken.onNavigated();
    taken.onNavigated();
    const steps = [await taken.next(5_000), await taken.next(5_000), await taken.next(5_000)];
    expect(steps.map((s) => s.step?.action)).toEqual(["click('2')", "goto('http://site/b')", 'go_back()']);
    expect(steps[2]!.step!.before.observation.url).toBe("after goto('http://site/b')");
    expect(played).toEqual(["click('2')", "goto('http://site/b')", 'go_back()']);
    taken.stop();
    taken.stop();
    expect(closed).toBe(1);
  });

  it("a step's own look keeps a URL typed meanwhile and absorbs a back/forward (the page's script)", async () => {
    const looks = [['go_back()'], ["goto('http://site/c')"], []];
    const navigations = { changes: async () => looks.shift() ?? [], close: async () => undefined };
    const played: string[] = [];
    const taken = new Recording(
      page('start'),
      performance.now(),
      async (action) => (played.push(action), page(`after ${action}`)),
      navigations,
    );
    taken.onInput({ kind: 'click', bid: '2' });
    taken.onInput({ kind: 'click', bid: '3' });
    const steps = [await taken.next(5_000), await taken.next(5_000), await taken.next(5_000)];
    expect(steps.map((s) => s.step?.action)).toEqual(["click('2')", "click('3')", "goto('http://site/c')"]);
    expect(steps[2]!.step!.before.observation.url).toBe("after click('3')");
    expect(played).toEqual(["click('2')", "click('3')", "goto('http://site/c')"]);
    taken.stop();
  });
});
