import type { StepResult } from '@gauntlet/proto';
import { describe, expect, it } from 'vitest';
import { randomPolicy } from './random-policy.js';

const page = (axtree: string) => ({ observation: { axtree_txt: axtree } }) as StepResult;
const TREE =
  "RootWebArea 'Task'\n\tStaticText 'Pick one'\n\t[12] button 'A'\n\t[13] link 'B'\n\t[14] textbox 'C'\n\t[15] heading 'D'";

async function clicks(seed: number | null, episodeId: string, turns = 12, tree = TREE): Promise<string[]> {
  const session = await randomPolicy(seed).start(
    { task: 't', seed: 0, episodeId, systemPrompt: '', observation: '', result: page(tree) },
    {},
  );
  const out: string[] = [];
  for (let index = 0; index < turns; index++)
    out.push((await session.act({ index, observation: '', result: page(tree) }, {})).text);
  return out;
}

describe('randomPolicy', () => {
  it('clicks interactive elements only, and the same seed clicks the same ones', async () => {
    const played = await clicks(7, 'e.0');
    expect(new Set(played)).toEqual(new Set(['click("12")', 'click("13")', 'click("14")']));
    expect(await clicks(7, 'other')).toEqual(played);
    expect(await clicks(8, 'e.0')).not.toEqual(played);
  });

  it('without a seed, the episode id seeds it (siblings differ, a replay does not)', async () => {
    expect(await clicks(null, 'g.0')).toEqual(await clicks(null, 'g.0'));
    expect(await clicks(null, 'g.0')).not.toEqual(await clicks(null, 'g.1'));
  });

  it('waits (noop) when nothing on the page can be clicked', async () => {
    expect(await clicks(1, 'e', 2, "RootWebArea 'Empty'")).toEqual(['noop()', 'noop()']);
  });
});
