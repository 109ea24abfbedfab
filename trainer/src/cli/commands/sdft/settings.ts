import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { ExecutionProvider } from '../../../engine/runtime.js';
import { makeLoraConfig, type LoraConfig, type LoraTarget } from '../../../lora/config.js';
import { DEFAULT_EMA_ALPHA } from '../../../train/sdft/ema.js';
import { checkTeacherTemplate, DEFAULT_TEACHER_TEMPLATE } from '../../../train/sdft/teacher-prompt.js';
import { UsageError, type CommandContext } from '../../command.js';
import {
  choiceOption,
  integerOption,
  listOption,
  numberOption,
  optionalIntegerOption,
  stringOption,
} from '../../options.js';
import { DEVICES } from '../sft/settings.js';

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
}

const usage = (message: string) => new UsageError(`sdft: ${message}`);

/** A rate flag in [0, 1]. */
function unitOption(context: Pick<CommandContext, 'options'>, name: string, fallback: number): number {
  const value = numberOption(context, name, fallback, 0, true);
  if (value > 1) throw usage(`--${name} must be between 0 and 1 (got ${value})`);
  return value;
}

export async function parseSdftSettings(context: Pick<CommandContext, 'options'>): Promise<SdftSettings> {
  const required = (name: string, what: string): string => {
    const value = stringOption(context, name);
    if (value === undefined || value === '') throw usage(`--${name} ${what} is required`);
    return resolve(value);
  };
  const rank = integerOption(context, 'lora-rank', 16, 1);
  let lora: LoraConfig;
  try {
    const targets = listOption(context, 'targets');
    lora = makeLoraConfig({
      rank,
      alpha: numberOption(context, 'lora-alpha', rank),
      ...(targets ? { targets: targets as LoraTarget[] } : {}),
    });
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw usage((error as Error).message);
  }
  const settings: SdftSettings = {
    demoFile: required('demo', 'FILE (demo.json or demo.jsonl from gauntlet-agent record)'),
    outDir: required('out', 'DIR (where the adapter goes)'),
    emaAlpha: unitOption(context, 'ema-alpha', DEFAULT_EMA_ALPHA),
    mix: unitOption(context, 'distillation-alpha', 1),
    epochs: integerOption(context, 'epochs', 2, 1),
    lora,
    teacherTemplate: await readTemplate(stringOption(context, 'teacher-template')),
    batchSize: integerOption(context, 'batch-size', 4, 1),
    lr: numberOption(context, 'lr', 1e-4),
    temperature: numberOption(context, 'temperature', 1),
    maxNewTokens: integerOption(context, 'max-new-tokens', 48, 1),
    seed: integerOption(context, 'seed', 0, 0),
    device: choiceOption(context, 'device', DEVICES, 'cpu'),
    force: context.options['force'] === true,
  };
  const paths = { modelDir: 'model', initAdapter: 'init-adapter', resume: 'resume' } as const;
  for (const [key, flag] of Object.entries(paths)) {
    const value = stringOption(context, flag);
    if (value !== undefined) settings[key as keyof typeof paths] = resolve(value);
  }
  const task = stringOption(context, 'task');
  if (task !== undefined) settings.task = task;
  const optional = { topK: 'top-k', maxLength: 'max-length', saveEvery: 'save-every', threads: 'threads' } as const;
  for (const [key, flag] of Object.entries(optional)) {
    const value = optionalIntegerOption(context, flag);
    if (value !== undefined) settings[key as keyof typeof optional] = value;
  }
  return settings;
}

async function readTemplate(file: string | undefined): Promise<string> {
  if (file === undefined) return DEFAULT_TEACHER_TEMPLATE;
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw usage(
      `--teacher-template ${file}: cannot read it (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
    );
  }
  try {
    return checkTeacherTemplate(text);
  } catch (error) {
    throw usage(`--teacher-template ${file}: ${(error as Error).message}`);
  }
}
