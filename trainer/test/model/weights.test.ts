import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readModelTensors } from '../../src/model/model-files.js';
import { readSafetensors, writeSafetensors } from '../../src/model/safetensors.js';
import { writeTinyModel } from '../../src/model/tiny.js';
import { loadModel } from '../../src/model/weights.js';
import { useTempDirs } from '../support/temp-dir.js';

const tempDir = useTempDirs();

async function tinyFolder(): Promise<string> {
  const dir = await tempDir();
  await writeTinyModel(dir, { architecture: 'qwen2', seed: 5 });
  return dir;
}

/** Rewrites a tiny folder's weights as two shards plus an index, like `save_pretrained` with a size limit. */
async function shard(dir: string): Promise<void> {
  const { tensors } = await readSafetensors(join(dir, 'model.safetensors'));
  const names = [...tensors.keys()];
  const halves = [names.slice(0, names.length / 2), names.slice(names.length / 2)];
  const weightMap: Record<string, string> = {};
  for (const [i, half] of halves.entries()) {
    const shardName = `model-0000${i + 1}-of-00002.safetensors`;
    await writeSafetensors(join(dir, shardName), new Map(half.map((n) => [n, tensors.get(n)!])));
    for (const name of half) weightMap[name] = shardName;
  }
  await writeFile(
    join(dir, 'model.safetensors.index.json'),
    JSON.stringify({ metadata: { total_size: 0 }, weight_map: weightMap }),
  );
  await rm(join(dir, 'model.safetensors'));
}

describe('loadModel', () => {
  it('reads sharded checkpoints through model.safetensors.index.json', async () => {
    const dir = await tinyFolder();
    const single = await loadModel(dir);
    await shard(dir);
    expect((await loadModel(dir)).weights).toEqual(single.weights);
  });

  it('names the file and tensor when a tensor is missing', async () => {
    const dir = await tinyFolder();
    const file = join(dir, 'model.safetensors');
    const { tensors } = await readSafetensors(file);
    tensors.delete('model.layers.1.mlp.up_proj.weight');
    await writeSafetensors(file, tensors);
    await expect(loadModel(dir)).rejects.toThrow(
      `${file}: tensor model.layers.1.mlp.up_proj.weight is missing (expected shape [128, 64])`,
    );
  });

  it('names the shard and tensor when a shape is wrong', async () => {
    const dir = await tinyFolder();
    await shard(dir);
    const file = join(dir, 'model-00002-of-00002.safetensors');
    const { tensors } = await readSafetensors(file);
    tensors.set('model.norm.weight', { shape: [32], data: new Float32Array(32) });
    await writeSafetensors(file, tensors);
    await expect(loadModel(dir)).rejects.toThrow(`${file}: tensor model.norm.weight has shape [32], expected [64]`);
  });

  it('names the shard when the index lists a tensor the shard lacks', async () => {
    const dir = await tinyFolder();
    await shard(dir);
    const file = join(dir, 'model-00001-of-00002.safetensors');
    const { tensors } = await readSafetensors(file);
    const dropped = [...tensors.keys()][0]!;
    tensors.delete(dropped);
    await writeSafetensors(file, tensors);
    await expect(loadModel(dir)).rejects.toThrow(
      `${file}: tensor ${dropped} is missing (model.safetensors.index.json lists it in this shard)`,
    );
  });

  it('explains a folder without weights, and a missing config', async () => {
    const dir = await tinyFolder();
    await rm(join(dir, 'model.safetensors'));
    await expect(readModelTensors(dir)).rejects.toThrow(
      `${dir}: no model.safetensors or model.safetensors.index.json in the model folder`,
    );
    await rm(join(dir, 'config.json'));
    await expect(loadModel(dir)).rejects.toThrow(`${join(dir, 'config.json')}: file not found`);
  });

  it('rejects an index whose weight_map points outside the folder', async () => {
    const dir = await tinyFolder();
    await rm(join(dir, 'model.safetensors'));
    await writeFile(
      join(dir, 'model.safetensors.index.json'),
      JSON.stringify({ weight_map: { 'model.norm.weight': '../elsewhere.safetensors' } }),
    );
    await expect(loadModel(dir)).rejects.toThrow(
      'model.safetensors.index.json: weight_map.model.norm.weight must name a shard file in the same folder',
    );
  });
});
