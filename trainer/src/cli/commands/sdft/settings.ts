import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { ExecutionProvider } from '../../../engine/runtime.js';
import { makeLoraConfig, type LoraConfig, type LoraTarget } from '../../../lora/config.js';
import { readModelConfig } from '../../../model/config.js';
import { checkDemonstrationTemplate, DEFAULT_DEMONSTRATION_TEMPLATE } from '@gauntlet/proto/agent';
import { UsageError, type OptionValues } from '../../command.js';
import type { SDFT_OPTIONS } from './options.js';
import { parseRolloutSettings, type SdftRolloutSettings } from './rollout-settings.js';

/** Everything `gauntlet-trainer sdft` was asked to do, checked; paths absolute. */
export interface SdftSettings {
  modelDir?: string;
  demoFile: string;
  /** The task the demonstration must be of (checked against the demo's own). */
  task?: string;
  outDir: string;
  initAdapter?: string;
  emaAlpha: number;
  /** 0 = forward KL(teacher ‖ student), 1 = reverse KL(student ‖ teacher). */
  mix: number;
  epochs: number;
  /** LoRA layout of a fresh adapter (an --init-adapter brings its own). */
  lora: LoraConfig;
  topK?: number;
  teacherTemplate: string;
  /** Demo states per optimizer step. */
  batchSize: number;
  lr: number;
  temperature: number;
  maxNewTokens: number;
  maxLength?: number;
  saveEvery?: number;
  resume?: string;
  seed: number;
  threads?: number;
  device: ExecutionProvider;
  force: boolean;
  /** --rollouts: the student samples through the rollout tier (absent: in-process, from the demo's states). */
  rollouts?: SdftRolloutSettings;
}

const usage = (message: string, flag: string) => new UsageError(`sdft: ${message}`, flag);

export async function parseSdftSettings(context: {
  options: OptionValues<typeof SDFT_OPTIONS>;
  given?: ReadonlySet<string> | undefined;
}): Promise<SdftSettings> {
  const values = context.options;
  const required = (name: 'demo' | 'out', what: string): string => {
    const value = values[name];
    if (value === undefined || value === '') throw usage(`--${name} ${what} is required`, name);
    return resolve(value);
  };
  const rank = values['lora-rank'];
  let lora: LoraConfig;
  try {
    lora = makeLoraConfig({
      rank,
      alpha: values['lora-alpha'] ?? rank,
      ...(values.targets ? { targets: values.targets as LoraTarget[] } : {}),
    });
  } catch (error) {
    throw usage((error as Error).message, 'targets');
  }
  const teacherTemplate = await readTemplate(values['teacher-template']);
  const settings: SdftSettings = {
    demoFile: required('demo', 'FILE (demo.json or demo.jsonl from gauntlet-agent record)'),
    outDir: required('out', 'DIR (where the adapter goes)'),
    emaAlpha: values['ema-alpha'],
    mix: values['distillation-alpha'],
    epochs: values.epochs,
    lora,
    teacherTemplate,
    batchSize: values['batch-size'],
    lr: values.lr,
    temperature: values.temperature,
    maxNewTokens: values['max-new-tokens'],
    seed: values.seed,
    device: values.device as ExecutionProvider,
    force: values.force,
    ...(values.model === undefined ? {} : { modelDir: resolve(values.model) }),
    ...(values['init-adapter'] === undefined ? {} : { initAdapter: resolve(values['init-adapter']) }),
    ...(values.resume === undefined ? {} : { resume: resolve(values.resume) }),
    ...(values.task === undefined ? {} : { task: values.task }),
    ...(values['top-k'] === undefined ? {} : { topK: values['top-k'] }),
    ...(values['max-length'] === undefined ? {} : { maxLength: values['max-length'] }),
    ...(values['save-every'] === undefined ? {} : { saveEvery: values['save-every'] }),
    ...(values.threads === undefined ? {} : { threads: values.threads }),
  };
  if (values.rollouts && values.model !== undefined) await checkTurnLength(values.model, settings.maxNewTokens);
  // Last: it opens the queues' client once every other flag is known good.
  const rollouts = parseRolloutSettings(values, context.given);
  return rollouts ? { ...settings, rollouts, task: rollouts.task } : settings;
}

/** A turn the policy server would refuse every time (no room left for the prompt) is refused here, before the model loads. */
async function checkTurnLength(modelDir: string, maxNewTokens: number): Promise<void> {
  const context = (await readModelConfig(resolve(modelDir))).maxPositionEmbeddings;
  if (maxNewTokens >= context)
    throw usage(
      `--max-new-tokens (${maxNewTokens}) must be below the model's context of ${context} tokens: the prompt needs room too`,
      'max-new-tokens',
    );
}

async function readTemplate(file: string | undefined): Promise<string> {
  if (file === undefined) return DEFAULT_DEMONSTRATION_TEMPLATE;
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw usage(
      `--teacher-template ${file}: cannot read it (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
      'teacher-template',
    );
  }
  try {
    return checkDemonstrationTemplate(text);
  } catch (error) {
    throw usage(`--teacher-template ${file}: ${(error as Error).message}`, 'teacher-template');
  }
}
