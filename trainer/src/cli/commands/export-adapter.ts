import { resolve } from 'node:path';
import { readTokenizerFiles, writeModelFolder } from '../../model/model-folder.js';
import { loadModel } from '../../model/weights.js';
import { mergeAdapter } from '../../lora/merge.js';
import { loadAdapter, saveAdapter } from '../../lora/peft.js';
import { defineCommand, UsageError } from '../command.js';
import { prepareOutputDir } from '../output-dir.js';

export const exportAdapterCommand = defineCommand({
  name: 'export-adapter',
  summary: 'Export a LoRA adapter in PEFT format (for vLLM / PEFT), or merged into a full model',
  description: [
    'Reads a PEFT LoRA adapter folder (adapter_config.json + adapter_model.safetensors), checks it,',
    'and writes a clean PEFT copy that vLLM (--enable-lora, /v1/load_lora_adapter) and PEFT load.',
    'With --merge, writes a complete model folder instead, the adapter folded into the weights',
    '(W + scale·B·A, float32), for servers that do not support LoRA.',
  ].join('\n'),
  positionals: [
    { name: 'adapter-dir', help: "The adapter folder to export (e.g. a training checkpoint's adapter)" },
    { name: 'out-dir', help: 'Folder to write' },
  ],
  options: {
    model: {
      kind: 'string',
      valueName: 'DIR',
      help: 'Base model folder: the adapter is checked against its shapes; required with --merge',
    },
    'base-model': {
      kind: 'string',
      valueName: 'NAME',
      help: 'base_model_name_or_path to record (e.g. a hub id the server can resolve)',
      defaultText: "the adapter's own, else --model",
    },
    merge: { kind: 'boolean', help: 'Write a full model folder with the adapter merged into the weights' },
    force: { kind: 'boolean', help: 'Write into a folder that already has files, overwriting them' },
  },
  examples: [
    'gauntlet-trainer export-adapter runs/step-200/adapter exports/click-test --base-model Qwen/Qwen2.5-0.5B-Instruct',
    'gauntlet-trainer export-adapter runs/step-200/adapter exports/merged --model models/tiny --merge',
  ],
  async run(context) {
    const [adapterDir, outDir] = context.positionals.map((p) => resolve(p)) as [string, string];
    const modelOption = context.options.model;
    const modelDir = modelOption === undefined ? undefined : resolve(modelOption);
    const merge = context.options.merge;
    if (merge && !modelDir)
      throw new UsageError('export-adapter: --merge needs --model DIR (the base weights to merge into)', 'merge');
    const model = modelDir ? await loadModel(modelDir) : undefined;
    const adapter = await loadAdapter(adapterDir, model ? { model: model.config } : {});
    await prepareOutputDir(outDir, context.options.force, 'export-adapter');
    if (merge && model && modelDir) {
      const merged = mergeAdapter(model.weights, adapter);
      await writeModelFolder(outDir, model.config, merged, await readTokenizerFiles(modelDir));
      context.io.out(`Merged ${adapter.modules.size} LoRA modules into ${modelDir}; wrote the model to ${outDir}`);
      return;
    }
    const baseModel = context.options['base-model'] ?? adapter.baseModelNameOrPath ?? modelDir ?? null;
    await saveAdapter(outDir, adapter, { baseModelNameOrPath: baseModel });
    context.io.out(
      `Wrote PEFT adapter (rank ${adapter.config.rank}, ${adapter.modules.size} modules, base ${baseModel ?? '-'}) to ${outDir}`,
    );
  },
});
