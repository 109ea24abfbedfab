import { mkdir, mkdtemp, readdir, readFile, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { initLoraAdapter } from '../../lora/adapter.js';
import { makeLoraConfig } from '../../lora/config.js';
import { tinyModelConfig } from '../../model/tiny.js';
import { CheckpointError } from './errors.js';
import type { CheckpointState } from './state.js';
import { CheckpointStore } from './store.js';

let dir = '';
beforeEach(async () => (dir = await mkdtemp(join(tmpdir(), 'gauntlet-store-'))));
afterEach(() => rm(dir, { recursive: true, force: true }));

function state(step: number): CheckpointState {
  const adapter = initLoraAdapter(tinyModelConfig(), makeLoraConfig({ rank: 2 }), step);
  const m = new Map([...adapter.modules.keys()].map((p) => [`${p}.lora_A.weight`, new Float32Array([step, 0.5])]));
  const v = new Map([...m].map(([k, a]) => [k, a.map((x) => x * x)]));
  return {
    step,
    version: step,
    adapter,
    optimizer: { step, optimizer: { step, m, v } },
    rngState: { s: [step] },
    config: { run: 'r' },
    curriculum: {},
    counters: { dropped: step },
  };
}

/** A full-parameter run's state: trained base weights by name, no adapter. */
function weightsState(step: number): CheckpointState {
  const { adapter: _none, ...rest } = state(step);
  const weights = new Map([
    ['model.embed_tokens.weight', { shape: [2, 3], data: new Float32Array([step, 1, 2, 3, 4, 0.1]) }],
    ['model.norm.weight', { shape: [3], data: new Float32Array([1, step, -0.5]) }],
  ]);
  return { ...rest, weights };
}

describe('CheckpointStore', () => {
  it("keeps trained base weights (and earlier versions' weights) bit for bit; a corrupt weights file is named", async () => {
    const store = new CheckpointStore(dir, { keep: 5 });
    const earlier = [{ version: 0, weights: weightsState(9).weights! }];
    const path = await store.save({ ...weightsState(1), earlier });
    const loaded = await store.load(path);
    expect(loaded.adapter).toBeUndefined();
    expect(loaded.weights).toEqual(weightsState(1).weights);
    expect(loaded.earlier).toEqual(earlier);
    expect(JSON.parse(await readFile(join(path, 'state.json'), 'utf8'))).toMatchObject({ trained: ['weights'] });
    // An adapter-only checkpoint is written as before: no `trained` field.
    const adapterOnly = await store.save(state(2));
    expect(JSON.parse(await readFile(join(adapterOnly, 'state.json'), 'utf8'))).not.toHaveProperty('trained');
    await truncate(join(path, 'versions', 'v0', 'weights.safetensors'), 8);
    await expect(store.load(path)).rejects.toThrow(/v0\/weights\.safetensors: is 8 bytes, state\.json recorded/);
    await expect(
      store.save({ ...weightsState(3), earlier: [{ version: 2, adapter: state(2).adapter! }] }),
    ).rejects.toThrow(/earlier version 2 holds other tensors/);
  });

  it('round-trips every part and keeps only the newest `keep`', async () => {
    const lines: string[] = [];
    const store = new CheckpointStore(dir, { keep: 2, log: (l) => lines.push(l) });
    for (const step of [1, 2, 3]) await store.save(state(step));
    expect((await store.list()).map((e) => e.step)).toEqual([3, 2]);
    expect(lines).toEqual([expect.stringMatching(/checkpoint-00000001 removed/)]);
    const loaded = (await store.latest())!;
    const want = state(3);
    expect(loaded).toMatchObject({ step: 3, version: 3, rngState: { s: [3] }, counters: { dropped: 3 } });
    expect(loaded.optimizer.optimizer.m).toEqual(want.optimizer.optimizer.m);
    expect(loaded.optimizer.optimizer.v).toEqual(want.optimizer.optimizer.v);
    expect([...loaded.adapter!.modules.values()][0]!.a.data).toEqual([...want.adapter!.modules.values()][0]!.a.data);
  });

  it('names the corrupt or partial file, and latest() falls back to the newest good checkpoint', async () => {
    const lines: string[] = [];
    const store = new CheckpointStore(dir, { keep: 5, log: (l) => lines.push(l) });
    const paths = [];
    for (const step of [1, 2, 3, 4]) paths.push(await store.save(state(step)));
    const [one, two, three, four] = paths as [string, string, string, string];
    // 4: a flipped byte in the optimizer moments; 3: a truncated adapter; 2: no state.json (crash mid-save).
    const optimizer = join(four, 'optimizer.safetensors');
    const bytes = await readFile(optimizer);
    bytes[bytes.length - 1]! ^= 0xff;
    await writeFile(optimizer, bytes);
    await truncate(join(three, 'adapter', 'adapter_model.safetensors'), 10);
    await rm(join(two, 'state.json'));
    await mkdir(join(dir, '.checkpoint-00000009.tmp-1-abcd')); // a crashed save's temporary folder

    await expect(store.load(four)).rejects.toThrow(new RegExp(`^${optimizer}: its sha256 differs`));
    await expect(store.load(three)).rejects.toThrow(/adapter_model\.safetensors: is 10 bytes, state\.json recorded/);
    await expect(store.load(two)).rejects.toBeInstanceOf(CheckpointError);
    expect((await store.latest())!.path).toBe(one);
    expect(lines).toHaveLength(3);
    await store.save(state(5));
    expect(await readdir(dir)).not.toContain('.checkpoint-00000009.tmp-1-abcd');
    expect(lines.at(-1)).toMatch(/removed \.checkpoint-00000009\.tmp-1-abcd, left by an interrupted save/);
  });

  it('an edited state.json (version, step, optimizer step, RNG, counters, curriculum) falls back to the previous checkpoint', async () => {
    const lines: string[] = [];
    const store = new CheckpointStore(dir, { keep: 5, log: (l) => lines.push(l) });
    const [one, two] = [await store.save(state(1)), await store.save(state(2))];
    const file = join(two, 'state.json');
    const original = await readFile(file, 'utf8');
    const edits: Record<string, (json: Record<string, unknown>) => void> = {
      version: (j) => (j['version'] = 7),
      step: (j) => (j['step'] = 7),
      optimizerStep: (j) => (j['optimizerStep'] = 0),
      rngState: (j) => (j['rngState'] = { s: [99] }),
      counters: (j) => (j['counters'] = { dropped: 0 }),
      curriculum: (j) => (j['curriculum'] = { t: 1 }),
      'own digest dropped, format 1': (j) => ((j['formatVersion'] = 1), delete j['sha256']),
    };
    for (const [name, change] of Object.entries(edits)) {
      const json = JSON.parse(original) as Record<string, unknown>;
      change(json);
      await writeFile(file, JSON.stringify(json, null, 2));
      await expect(store.load(two), name).rejects.toBeInstanceOf(CheckpointError);
      expect((await store.latest())!.path, name).toBe(one);
      expect(lines.at(-1), name).toMatch(
        /checkpoint-00000002 skipped: .*state\.json: (its fields do not match|formatVersion)/,
      );
    }
    // Laid out differently but the same values: still the checkpoint it was.
    await writeFile(file, JSON.stringify(JSON.parse(original)));
    expect((await store.latest())!.path).toBe(two);
  });

  it('keeps the earlier versions given, checked like the other files', async () => {
    const lines: string[] = [];
    const store = new CheckpointStore(dir, { keep: 5, log: (l) => lines.push(l) });
    const one = await store.save(state(1));
    const earlier = [0, 1].map((version) => ({ version, adapter: state(version + 10).adapter }));
    const two = await store.save({ ...state(2), earlier });
    const loaded = (await store.latest())!;
    expect(loaded.earlier.map((e) => e.version)).toEqual([0, 1]);
    expect([...loaded.earlier[1]!.adapter!.modules.values()][0]!.a.data).toEqual(
      [...earlier[1]!.adapter!.modules.values()][0]!.a.data,
    );
    expect((await store.load(one)).earlier).toEqual([]);
    const weights = join(two, 'versions', 'v1', 'adapter_model.safetensors');
    await truncate(weights, 10);
    expect((await store.latest())!.path).toBe(one);
    expect(lines.at(-1)).toContain(`${weights}: is 10 bytes`);
  });

  it('refuses a state.json that does not validate, naming the field', async () => {
    const store = new CheckpointStore(dir);
    const path = await store.save(state(1));
    const file = join(path, 'state.json');
    const json = JSON.parse(await readFile(file, 'utf8'));
    await writeFile(file, JSON.stringify({ ...json, step: -1 }));
    await expect(store.load(path)).rejects.toThrow(/state\.json: step: /);
    await writeFile(file, '{"format": ');
    await expect(store.load(path)).rejects.toThrow(/state\.json: is not JSON/);
    expect(await store.latest()).toBeNull();
  });
});
