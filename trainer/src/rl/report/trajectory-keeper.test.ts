import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConsumedGroup } from '@gauntlet/proto/rollout';
import { afterAll, describe, expect, it } from 'vitest';
import { group, turn } from '../../../test/support/trajectories.js';
import { TrajectoryKeeper } from './trajectory-keeper.js';

const dirs: string[] = [];
afterAll(() => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));
async function tempFile(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'gauntlet-keeper-'));
  dirs.push(dir);
  return join(dir, 'out', 'trajectories.jsonl');
}
const at = (version: number) => ({ model: 'tiny', adapter: `run@v${version}`, version });
const played = (id: string, version: number) =>
  group(id, [0, 1], at(version), () => [
    turn(0, { completion_ids: [7, 8], logprobs: [-1, -2], env_ids: [9], policy: at(version), done: true }),
  ]);
async function read(path: string): Promise<ConsumedGroup[]> {
  const text = await readFile(path, 'utf8');
  return text
    .trim()
    .split('\n')
    .map((line) => ConsumedGroup.parse(JSON.parse(line)));
}

describe('TrajectoryKeeper (--keep-trajectories)', () => {
  it('keeps the newest N groups, with the trainer version, the admission and each token text', async () => {
    const path = await tempFile();
    const keeper = new TrajectoryKeeper({ path, groups: 2, tokenText: (id) => `<${id}>`, log: () => {} });
    for (let k = 0; k < 5; k++) keeper.keep(played(`g${k}`, k), k + 1, k === 4 ? 'stale' : 'admitted');
    await keeper.flushed();
    const kept = await read(path);
    expect(kept.map((c) => [c.group.group_id, c.trainer_version, c.admission])).toEqual([
      ['g3', 4, 'admitted'],
      ['g4', 5, 'stale'],
    ]);
    expect(kept[0]!.token_texts).toEqual({ '7': '<7>', '8': '<8>', '9': '<9>' });

    // A resumed run takes the file up and still keeps at most N.
    const again = new TrajectoryKeeper({ path, groups: 2, log: () => {} });
    await again.resume();
    again.keep(played('g5', 5), 5, 'admitted');
    await again.flushed();
    expect((await read(path)).map((c) => [c.group.group_id, c.token_texts])).toEqual([
      ['g4', { '7': '<7>', '8': '<8>', '9': '<9>' }],
      ['g5', undefined],
    ]);
  });

  it('a file it cannot write is said once, training goes on, and the next group that can be written is', async () => {
    const path = await tempFile();
    const logs: string[] = [];
    const keeper = new TrajectoryKeeper({ path, groups: 1, log: (l) => logs.push(l) });
    keeper.keep(played('g0', 0), 0, 'admitted');
    await keeper.flushed();
    // A folder where the file should be: it cannot be renamed into place.
    await rm(path);
    await mkdir(join(path, 'x'), { recursive: true });
    keeper.keep(played('g1', 0), 0, 'admitted');
    await keeper.flushed();
    keeper.keep(played('g2', 0), 0, 'admitted');
    await keeper.flushed();
    expect(logs).toEqual([expect.stringMatching(/^cannot write .*trajectories\.jsonl: E[A-Z]+/)]);
    await rm(path, { recursive: true });
    keeper.keep(played('g3', 0), 0, 'admitted');
    await keeper.flushed();
    expect((await read(path)).map((c) => c.group.group_id)).toEqual(['g3']);

    // Resuming drops lines that are not ConsumedGroups.
    await writeFile(path, `not json\n${await readFile(path, 'utf8')}{"group": 1}\n`);
    const fresh = new TrajectoryKeeper({ path, groups: 3, log: () => {} });
    await fresh.resume();
    fresh.keep(played('g4', 1), 1, 'admitted');
    await fresh.flushed();
    expect((await read(path)).map((c) => c.group.group_id)).toEqual(['g3', 'g4']);
  });
});
