import { stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { pathExists } from '../../../model/files.js';
import { ADAPTER_CONFIG_FILE } from '../../../lora/peft-config.js';
import { defineCommand, UsageError } from '../../command.js';
import { describeAdapter, describeModel, describeSafetensorsFile, type Report } from './report.js';

export const inspectCommand = defineCommand({
  name: 'inspect',
  summary: "Print a model or adapter folder's config and tensor table, and check the shapes",
  description: [
    'Reads only headers, so it is instant even for large checkpoints. For a model folder: the',
    'normalised config and every tensor (name, dtype, shape), checked against the shapes the config',
    'implies. For a PEFT adapter folder: rank, alpha, scale, targets and the lora_A/lora_B tensors.',
    'A single .safetensors file prints its tensor table. Exits 1 when a check fails.',
  ].join('\n'),
  positionals: [{ name: 'path', help: 'Model folder, adapter folder (adapter_config.json), or a .safetensors file' }],
  options: {
    json: { kind: 'boolean', help: 'Print one JSON object instead of text' },
  },
  examples: ['gauntlet-trainer inspect ./models/tiny', 'gauntlet-trainer inspect ./runs/step-100/adapter --json'],
  async run(context) {
    const path = resolve(context.positionals[0]!);
    const report = await inspectPath(path);
    if (context.options.json) context.io.out(JSON.stringify(report.json, null, 2));
    else for (const line of report.lines) context.io.out(line);
    if (report.problems.length > 0) {
      for (const problem of report.problems) context.io.err(`problem: ${problem}`);
      return 1;
    }
  },
});

async function inspectPath(path: string): Promise<Report> {
  const info = await stat(path).catch(() => undefined);
  if (!info) throw new UsageError(`inspect: ${path} does not exist`);
  if (info.isFile()) {
    if (!path.endsWith('.safetensors'))
      throw new UsageError(`inspect: ${path} is a file but not .safetensors; pass a model or adapter folder`);
    return describeSafetensorsFile(path);
  }
  if (await pathExists(join(path, ADAPTER_CONFIG_FILE))) return describeAdapter(path);
  if (await pathExists(join(path, 'config.json'))) return describeModel(path);
  throw new UsageError(`inspect: ${path} has neither config.json (model) nor ${ADAPTER_CONFIG_FILE} (adapter)`);
}
