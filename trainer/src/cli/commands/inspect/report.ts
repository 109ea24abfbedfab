import { join } from 'node:path';
import { readModelConfig } from '../../../model/config.js';
import { expectedWeightShapes } from '../../../model/layout.js';
import { JsonObjectReader } from '../../../model/json-reader.js';
import { readShardIndex, SHARD_INDEX, SINGLE_FILE } from '../../../model/model-files.js';
import { pathExists } from '../../../model/files.js';
import { readSafetensorsHeader } from '../../../model/safetensors.js';
import type { SafetensorsEntry } from '../../../model/safetensors-header.js';
import { elementCount, formatShape, sameShape } from '../../../model/tensor.js';
import { loraScale } from '../../../lora/config.js';
import { ADAPTER_CONFIG_FILE, parsePeftAdapterConfig } from '../../../lora/peft-config.js';
import { ADAPTER_WEIGHTS_FILE } from '../../../lora/peft.js';
import { formatCount, formatTable } from '../../table.js';

export interface Report {
  lines: string[];
  json: Record<string, unknown>;
  problems: string[];
}

interface ListedTensor extends SafetensorsEntry {
  file: string;
}

export async function describeModel(dir: string): Promise<Report> {
  const config = await readModelConfig(dir);
  const tensors = await listModelTensors(dir);
  const byName = new Map(tensors.map((t) => [t.name, t]));
  const problems: string[] = [];
  for (const [name, shape] of expectedWeightShapes(config)) {
    const found = byName.get(name);
    if (!found) problems.push(`tensor ${name} is missing (expected ${formatShape(shape)})`);
    else if (!sameShape(found.shape, shape))
      problems.push(
        `${found.file}: tensor ${name} has shape ${formatShape(found.shape)}, expected ${formatShape(shape)}`,
      );
  }
  const scaling = config.ropeScaling ? `${config.ropeScaling.type} ×${config.ropeScaling.factor}` : 'no scaling';
  const lines = [
    `model ${dir}`,
    `  ${config.architecture}: hidden ${config.hiddenSize}, layers ${config.numLayers}, heads ${config.numHeads} (kv ${config.numKvHeads}, head dim ${config.headDim}), intermediate ${config.intermediateSize}, vocab ${config.vocabSize}`,
    `  rope θ ${config.ropeTheta} (${scaling}), rms eps ${config.rmsNormEps}, max positions ${config.maxPositionEmbeddings}, dtype ${config.torchDtype}`,
    `  ${config.tieWordEmbeddings ? 'tied' : 'untied'} embeddings${config.attentionBias ? ', q/k/v bias' : ''}${config.qkNorm ? ', q/k norm' : ''}; bos ${config.bosTokenId ?? '-'}, eos ${config.eosTokenIds.join(', ') || '-'}`,
    ...tensorTable(tensors),
    problems.length === 0
      ? 'check: every expected tensor present with the expected shape'
      : `check: ${problems.length} problem(s)`,
  ];
  return { lines, problems, json: { kind: 'model', path: dir, config, tensors: tensorsJson(tensors), problems } };
}

export async function describeAdapter(dir: string): Promise<Report> {
  const { lora, baseModelNameOrPath } = parsePeftAdapterConfig(
    await JsonObjectReader.read(join(dir, ADAPTER_CONFIG_FILE)),
  );
  const file = join(dir, ADAPTER_WEIGHTS_FILE);
  const tensors = (await readSafetensorsHeader(file)).entries.map((e) => ({ ...e, file }));
  const lines = [
    `adapter ${dir}`,
    `  LoRA rank ${lora.rank}, alpha ${lora.alpha}, scale ${loraScale(lora)}${lora.useRslora ? ' (rsLoRA)' : ''}, dropout ${lora.dropout}`,
    `  targets ${lora.targets.join(', ')}; base model ${baseModelNameOrPath ?? '-'}`,
    ...tensorTable(tensors),
  ];
  return {
    lines,
    problems: [],
    json: { kind: 'adapter', path: dir, config: lora, baseModelNameOrPath, tensors: tensorsJson(tensors) },
  };
}

export async function describeSafetensorsFile(file: string): Promise<Report> {
  const header = await readSafetensorsHeader(file);
  const tensors = header.entries.map((e) => ({ ...e, file }));
  return {
    lines: [`safetensors ${file}`, ...tensorTable(tensors)],
    problems: [],
    json: { kind: 'safetensors', path: file, metadata: header.metadata, tensors: tensorsJson(tensors) },
  };
}

async function listModelTensors(dir: string): Promise<ListedTensor[]> {
  const single = join(dir, SINGLE_FILE);
  if (await pathExists(single))
    return (await readSafetensorsHeader(single)).entries.map((e) => ({ ...e, file: single }));
  const listed: ListedTensor[] = [];
  for (const shard of (await readShardIndex(join(dir, SHARD_INDEX))).keys()) {
    const file = join(dir, shard);
    listed.push(...(await readSafetensorsHeader(file)).entries.map((e) => ({ ...e, file })));
  }
  return listed;
}

function tensorTable(tensors: ListedTensor[]): string[] {
  const parameters = tensors.reduce((sum, t) => sum + elementCount(t.shape), 0);
  const files = new Set(tensors.map((t) => t.file)).size;
  return [
    `tensors: ${tensors.length}, ${formatCount(parameters)} parameters, ${files} file${files === 1 ? '' : 's'}`,
    ...formatTable([
      ['name', 'dtype', 'shape'],
      ...[...tensors].sort(byNaturalName).map((t) => [t.name, t.dtype, formatShape(t.shape)]),
    ]),
  ];
}

// layers.2 before layers.10, as a reader expects.
function byNaturalName(a: { name: string }, b: { name: string }): number {
  return a.name.localeCompare(b.name, 'en', { numeric: true });
}

function tensorsJson(tensors: ListedTensor[]): { name: string; dtype: string; shape: number[]; file: string }[] {
  return tensors.map(({ name, dtype, shape, file }) => ({ name, dtype, shape, file }));
}
