import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalEnv, type LocalEnv } from '../src/env/local-env.js';
import { agent, readRun } from './support/agent.js';

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

let env: LocalEnv;
beforeAll(async () => {
  env = await startLocalEnv();
}, 120_000);
afterAll(() => env?.stop());

describe('gauntlet-agent run --screenshots', () => {
  it('keeps a PNG and the AXTree of every page and where each action landed, referenced from episodes.jsonl', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'agent-shots-')), 'run');
    const args = ['run', '--env', env.url, '--task', 'click-button,gauntlet:click_sequence', '--seeds', '0'];
    const run = await agent([...args, '--screenshots', '--out', out]);
    expect(run.errors).toEqual([]);
    expect(run.code).toBe(0);
    const { episodes } = readRun(out);
    expect(episodes.map((e) => e.outcome)).toEqual(['success', 'success']);
    episodes.forEach((episode, e) => {
      for (const turn of episode.turns) {
        expect(turn.screenshot).toBe(`screenshots/${e}/${turn.index}.png`);
        expect(turn.axtree).toBe(`observations/${e}/${turn.index}.txt`);
        expect(readFileSync(join(out, turn.screenshot!)).subarray(0, 8)).toEqual(PNG);
        expect(readFileSync(join(out, turn.axtree!), 'utf8')).toMatch(/^RootWebArea /);
        // Every oracle action here is on a bid, so each line has the box the page gave that bid.
        const bids = [...turn.action.matchAll(/^\w+\('(\w+)'/gm)].map((m) => m[1]);
        expect(turn.marks!.map((m) => (m.kind === 'box' ? m.bid : null))).toEqual(bids);
        for (const mark of turn.marks!) if (mark.kind === 'box') expect(mark.bbox[2] * mark.bbox[3]).toBeGreaterThan(0);
      }
      expect(episode.final).toEqual({
        screenshot: `screenshots/${e}/${episode.turns.length}.png`,
        axtree: `observations/${e}/${episode.turns.length}.txt`,
      });
      expect(existsSync(join(out, episode.final!.screenshot!))).toBe(true);
    });
    // The button the oracle clicks is in that page's AXTree under the same bid.
    const click = episodes[0]!.turns[0]!;
    const bid = /click\('(\w+)'\)/.exec(click.action)![1];
    expect(readFileSync(join(out, click.axtree!), 'utf8')).toContain(`[${bid}] button`);
  });

  it('writes no side files without the flag', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'agent-noshots-')), 'run');
    const run = await agent(['run', '--env', env.url, '--task', 'click-button', '--seeds', '0', '--out', out]);
    expect(run.code).toBe(0);
    expect(existsSync(join(out, 'screenshots'))).toBe(false);
    expect(readRun(out).episodes[0]!.turns[0]!.screenshot).toBeUndefined();
  });
});
