import { join } from 'node:path';
import { ModelFileError } from './errors.js';
import { pathExists } from './files.js';
import { JsonObjectReader, describeValue } from './json-reader.js';
import { readSafetensors, type ReadOptions } from './safetensors.js';
import type { TensorMap } from './tensor.js';

export const SINGLE_FILE = 'model.safetensors';
export const SHARD_INDEX = 'model.safetensors.index.json';

export interface ModelTensors {
  tensors: TensorMap;
  /** The file each tensor came from, so shape errors can name it. */
  fileOf: Map<string, string>;
  /** `model.safetensors` or the shard index: where a missing tensor should have been listed. */
  listing: string;
}

/** Reads a model folder's weights from `model.safetensors`, or from the shards its index lists. */
export async function readModelTensors(dir: string, options: ReadOptions = {}): Promise<ModelTensors> {
  const single = join(dir, SINGLE_FILE);
  if (await pathExists(single)) {
    const { tensors } = await readSafetensors(single, options);
    return { tensors, fileOf: new Map([...tensors.keys()].map((name) => [name, single])), listing: single };
  }
  const index = join(dir, SHARD_INDEX);
  if (!(await pathExists(index)))
    throw new ModelFileError(dir, `no ${SINGLE_FILE} or ${SHARD_INDEX} in the model folder`);
  return readShards(dir, index, options);
}

/** Shard file → tensor names it holds, from `weight_map` of a shard index. */
export async function readShardIndex(index: string): Promise<Map<string, string[]>> {
  const weightMap = (await JsonObjectReader.read(index)).optionalObject('weight_map');
  if (!weightMap)
    throw new ModelFileError(index, 'weight_map is missing (expected {tensor name: shard file})', 'weight_map');
  const shards = new Map<string, string[]>();
  for (const [name, shard] of Object.entries(weightMap.object)) {
    if (typeof shard !== 'string' || shard.includes('/') || shard.includes('\\')) {
      throw weightMap.fail(name, `must name a shard file in the same folder (got ${describeValue(shard)})`);
    }
    shards.set(shard, [...(shards.get(shard) ?? []), name]);
  }
  return shards;
}

async function readShards(dir: string, index: string, options: ReadOptions): Promise<ModelTensors> {
  const tensors: TensorMap = new Map();
  const fileOf = new Map<string, string>();
  for (const [shard, listed] of await readShardIndex(index)) {
    const wanted = new Set(listed.filter((name) => !options.only || options.only.has(name)));
    if (wanted.size === 0) continue;
    const file = join(dir, shard);
    const contents = await readSafetensors(file, { only: wanted });
    for (const name of wanted) {
      const tensor = contents.tensors.get(name);
      if (!tensor)
        throw new ModelFileError(file, `tensor ${name} is missing (${SHARD_INDEX} lists it in this shard)`, name);
      tensors.set(name, tensor);
      fileOf.set(name, file);
    }
  }
  return { tensors, fileOf, listing: index };
}
