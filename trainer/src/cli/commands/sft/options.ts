import type { ExecutionProvider } from '../../../engine/runtime.js';
import { defineOptions } from '../../command.js';

export const SCHEDULES = ['constant', 'linear', 'cosine'] as const;
export const DEVICES: readonly ExecutionProvider[] = ['cpu', 'cuda'];

/** sft's flags; dpo shares most of them (one parser reads both). */
export const SFT_OPTIONS = defineOptions({
  model: {
    kind: 'string',
    valueName: 'DIR',
    help: 'Hugging Face model folder (config.json, *.safetensors, tokenizer.json)',
    defaultText: 'the built-in tiny model, recorded as base model "tiny"',
  },
  data: { kind: 'string', valueName: 'FILE', help: 'Training data, JSONL (required)' },
  out: {
    kind: 'string',
    valueName: 'DIR',
    help: 'Folder for the PEFT adapter (or, with --train full, the model folder), written when training ends (required)',
  },
  steps: { kind: 'integer', min: 1, valueName: 'N', help: 'Optimizer steps', defaultText: 'one pass over the data' },
  epochs: {
    kind: 'number',
    above: 0,
    valueName: 'X',
    help: 'Passes over the examples as loaded (demo-conditioned copies included), rounded up to whole steps; not with --steps',
    defaultText: '1',
  },
  'batch-size': { kind: 'integer', min: 1, default: 8, valueName: 'N', help: 'Sequences per batch' },
  'grad-accum': {
    kind: 'integer',
    min: 1,
    default: 1,
    valueName: 'N',
    help: 'Batches whose gradients are summed per optimizer step (a step sees batch-size × N sequences)',
  },
  'micro-batch': {
    kind: 'integer',
    min: 1,
    valueName: 'N',
    help: 'Sequences per forward/backward pass; lower it to bound memory, results do not change',
    defaultText: 'batch-size, at most 8192 / max-length',
  },
  lr: {
    kind: 'number',
    above: 0,
    default: 2e-4,
    valueName: 'X',
    help: 'Peak learning rate (AdamW)',
    defaultText: '2e-4',
  },
  warmup: {
    kind: 'integer',
    min: 0,
    default: 0,
    valueName: 'N',
    help: 'Steps of linear warmup from 0 to --lr',
  },
  schedule: {
    kind: 'string',
    valueName: 'NAME',
    help: 'After warmup: constant, linear (to 0 at the last step) or cosine',
    choices: SCHEDULES,
    default: 'linear',
  },
  // No default in the row: dpo refuses a --rank given next to --init-adapter, so absent must show.
  rank: { kind: 'integer', min: 1, valueName: 'R', help: 'LoRA rank r', defaultText: '8' },
  alpha: {
    kind: 'number',
    above: 0,
    valueName: 'A',
    help: 'LoRA alpha; the adapter is scaled by alpha / r',
    defaultText: 'rank',
  },
  targets: {
    kind: 'list',
    valueName: 'LIST',
    help: 'Comma-separated modules to adapt: q_proj,k_proj,v_proj,o_proj,gate_proj,up_proj,down_proj',
    defaultText: 'all seven',
  },
  rslora: { kind: 'boolean', help: 'Rank-stabilised LoRA: scale by alpha / √r instead of alpha / r' },
  train: {
    kind: 'string',
    default: 'lora',
    valueName: 'WHAT',
    help: 'What to train: lora, full (every weight, embeddings and head included), or a comma list of lora, embeddings, head (tied: the embedding), layers (every block weight and the final norm)',
  },
  resume: {
    kind: 'string',
    valueName: 'DIR',
    help: 'Continue from a checkpoint-<step> folder of a run with the same --train, --seed, --steps, batch and examples; writes into --out without --force',
  },
  seed: {
    kind: 'integer',
    min: 0,
    default: 0,
    valueName: 'N',
    help: 'Seed for the adapter init and the data order (same seed, same run)',
  },
  'max-length': {
    kind: 'integer',
    min: 1,
    valueName: 'N',
    help: 'Longest sequence trained. Longer conversations drop their oldest exchanges (system prompt, goal turn and final actions kept) and are left out if still too long; longer text examples keep their first N tokens',
    defaultText: "the model's max_position_embeddings",
  },
  'prompt-loss-weight': {
    kind: 'number',
    min: 0,
    max: 1,
    default: 0,
    valueName: 'W',
    help: 'Also train the tokens that are not completions (system and user turns, prompts) at loss weight W, 0 to 1; the loss is then the weighted mean over all tokens. Helps a model trained from random weights, whose prompts hold most of the text',
    defaultText: '0 (completions only)',
  },
  'demo-conditioned': {
    kind: 'boolean',
    help: "Also train a demo-conditioned copy of each `gauntlet-env collect` record: every observation shows another seed's actions on the same task, as `gauntlet-worker eval --demo` and sdft's teacher show a demonstration, so the model learns to use one in its context",
  },
  'save-every': {
    kind: 'integer',
    min: 1,
    valueName: 'N',
    help: 'Also save a checkpoint every N steps to DIR/checkpoint-<step>: the adapter or model folder, optimizer.safetensors, trainer_state.json',
  },
  threads: {
    kind: 'integer',
    min: 1,
    valueName: 'N',
    help: 'onnxruntime threads per op',
    defaultText: 'one per core',
  },
  device: {
    kind: 'string',
    valueName: 'NAME',
    help: "Execution provider: cpu or cuda (needs onnxruntime-node's CUDA binaries)",
    choices: DEVICES,
    default: 'cpu',
  },
  force: {
    kind: 'boolean',
    help: 'Write into an --out folder that already has files, overwriting the adapter there',
  },
});
