import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startViewServer } from '../src/view/view-server.js';
import { openViewSource } from '../src/view/view-source.js';
import { agent } from './support/agent.js';
import { consumedGroup, trajectory } from './support/trajectories.js';

const base = mkdtempSync(join(tmpdir(), 'agent-view-trajectories-'));
const lines = (...values: unknown[]) => values.map((v) => `${JSON.stringify(v)}\n`).join('');

describe('gauntlet-agent view on rollout trajectories', () => {
  it("a trainer's kept group: tokens with text and logprob, env tokens masked, each turn's version and staleness", () => {
    const file = join(base, 'kept.trajectories.jsonl');
    // Played at v2 then v3; the trainer took the group at v3.
    writeFileSync(file, lines(consumedGroup('g7', 3, [2, 3])));
    const episodes = openViewSource(file).episodes();
    expect(episodes.map((e) => e.id)).toEqual(['g7.0', 'g7.1']);
    expect(episodes[0]!.note).toBe('group g7 · consumed by the trainer at v3 (admitted)');
    const [first, second] = episodes[0]!.turns;
    expect(first!.rollout).toEqual({
      version: 2,
      trainer_version: 3,
      staleness: 1,
      tokens: [
        { id: 11, text: 'click', logprob: -0.01, env: false },
        { id: 12, text: "('", logprob: -1.5, env: false },
        { id: 13, text: "7')", logprob: -6, env: false },
        { id: 20, text: '<|im_end|>', logprob: null, env: true },
        { id: 21, text: '\n', logprob: null, env: true },
      ],
    });
    expect([second!.rollout!.version, second!.rollout!.staleness]).toEqual([3, 0]);
    expect(first).toMatchObject({
      url: 'http://x/0',
      action: "click('7')",
      actor: 'tiny / run@v2@2',
      screenshot: null,
    });
  });

  it('plain Trajectory and TrajectoryGroup lines: ids only, the version without a staleness', () => {
    const file = join(base, 'plain.jsonl');
    const { group } = consumedGroup('g1', 5, [4]);
    writeFileSync(file, lines(trajectory('t', 0, [4]), group));
    const episodes = openViewSource(file).episodes();
    expect(episodes).toHaveLength(3);
    for (const e of episodes) {
      expect(e.note).toMatch(/no trainer version recorded: staleness unknown/);
      expect(e.turns[0]!.rollout).toMatchObject({ version: 4, trainer_version: null, staleness: null });
      expect(e.turns[0]!.rollout!.tokens[0]).toEqual({ id: 11, text: null, logprob: -0.01, env: false });
    }
  });

  it('a bad line is a usage error naming the file and line; a last line still being written is skipped', async () => {
    const good = lines(trajectory('t', 0, [1]));
    const cases: [string, RegExp][] = [
      [`${good}{"episode_id": \n${good}`, /RUN_DIR: bad\.jsonl line 2: not JSON \(/],
      [
        `${good}${good}${lines({ ...trajectory('t', 1, [1]), turns: [{ ...trajectory('t', 1, [1]).turns[0], logprobs: [] }] })}`,
        /RUN_DIR: bad\.jsonl line 3: not a Trajectory: turns\.0\.logprobs: logprobs must have one entry per completion token /,
      ],
      [lines({ group: { group_id: 'g' } }), /RUN_DIR: bad\.jsonl line 1: not a ConsumedGroup: trainer_version: /],
      [lines({ group_id: 'g', trajectories: [] }), /RUN_DIR: bad\.jsonl line 1: not a TrajectoryGroup: /],
      [lines(42), /RUN_DIR: bad\.jsonl line 1: not a Trajectory: \(line\): /],
    ];
    const file = join(base, 'bad.jsonl');
    for (const [text, error] of cases) {
      writeFileSync(file, text);
      const result = await agent(['view', file, '--port', '0']);
      expect([result.code, result.errors], text).toEqual([2, [expect.stringMatching(error)]]);
    }
    writeFileSync(file, `${good}{"episode_id": "t.1", "gro`);
    expect(openViewSource(file).episodes()).toHaveLength(1);
  });

  it('a line that turns bad while the viewer runs is a 500 naming it, and the server goes on', async () => {
    const file = join(base, 'changing.jsonl');
    writeFileSync(file, lines(trajectory('t', 0, [1])));
    const viewer = await startViewServer(openViewSource(file));
    try {
      writeFileSync(file, `oops\n${lines(trajectory('t', 0, [1]))}`);
      const reply = await fetch(`${viewer.url}api/episodes`);
      expect([reply.status, await reply.text()]).toEqual([
        500,
        expect.stringMatching(/^viewer error: changing\.jsonl line 1: not JSON \(.+\)$/),
      ]);
      writeFileSync(file, lines(trajectory('t', 0, [1])));
      expect((await fetch(`${viewer.url}api/episodes`)).status).toBe(200);
    } finally {
      await viewer.close();
    }
  });

  it("a folder of trajectories files (a trainer's output folder): its *trajectories*.jsonl, not metrics.jsonl", async () => {
    const dir = join(base, 'run');
    mkdirSync(dir);
    writeFileSync(join(dir, 'metrics.jsonl'), '{"step":1}\n');
    writeFileSync(join(dir, 'trajectories.jsonl'), lines(consumedGroup('g2', 1, [1])));
    writeFileSync(join(dir, 'b-trajectories.jsonl'), lines(trajectory('t', 0, [0])));
    const source = openViewSource(dir);
    expect(source.episodes().map((e) => e.id)).toEqual(['t.0', 'g2.0', 'g2.1']);
    // A file added while it is viewed shows up on the next read.
    writeFileSync(join(dir, 'c-trajectories.jsonl'), lines(trajectory('u', 0, [0])));
    expect(source.episodes().map((e) => e.id)).toEqual(['t.0', 'u.0', 'g2.0', 'g2.1']);
    const empty = join(base, 'empty');
    mkdirSync(empty);
    const result = await agent(['view', empty]);
    expect([result.code, result.errors]).toEqual([
      2,
      [expect.stringMatching(/RUN_DIR: .*empty has no episodes\.jsonl .* nor trajectories\*\.jsonl files/)],
    ]);
  });
});
