import { DEFAULT_EMA_ALPHA } from '../../../train/sdft/ema.js';
import { defineOptions } from '../../command.js';
import { SFT_OPTIONS as sft } from '../sft/options.js';
import { SDFT_ROLLOUT_OPTIONS } from './rollout-options.js';

/** sdft's flags. */
export const SDFT_OPTIONS = defineOptions({
  model: {
    ...sft.model,
    help: 'Hugging Face model folder (config.json, *.safetensors, tokenizer.json with a chat template)',
  },
  demo: {
    kind: 'string',
    valueName: 'FILE',
    help: 'The demonstration: demo.jsonl from gauntlet-agent record (or any SFT chat JSONL, a demonstration per line), or demo.json (its demo.jsonl beside it is read) (required)',
  },
  task: {
    kind: 'string',
    valueName: 'NAME',
    help: 'The task the demonstration must be of; with --rollouts, the task the episodes are played on',
  },
  out: { kind: 'string', valueName: 'DIR', help: "Folder for the student's PEFT adapter (required)" },
  'init-adapter': {
    kind: 'string',
    valueName: 'DIR',
    help: 'Start student and teacher from this PEFT adapter (its rank and targets are used)',
    defaultText: 'a fresh adapter (B = 0: the base model)',
  },
  'ema-alpha': {
    kind: 'number',
    min: 0,
    max: 1,
    default: DEFAULT_EMA_ALPHA,
    valueName: 'A',
    help: "The teacher's EMA rate per step, 0 to 1 (0 keeps the starting teacher)",
  },
  'distillation-alpha': {
    kind: 'number',
    min: 0,
    max: 1,
    default: 1,
    valueName: 'M',
    help: 'KL mix, 0 to 1: 0 = forward KL(teacher ‖ student), 1 = reverse KL(student ‖ teacher)',
    defaultText: '1 (reverse, as the paper)',
  },
  epochs: { kind: 'integer', min: 1, default: 2, valueName: 'N', help: "Passes over the demo's states" },
  'batch-size': { kind: 'integer', min: 1, default: 4, valueName: 'N', help: 'Demo states per optimizer step' },
  'lora-rank': { kind: 'integer', min: 1, default: 16, valueName: 'R', help: 'LoRA rank of a fresh adapter' },
  'lora-alpha': {
    kind: 'number',
    above: 0,
    valueName: 'A',
    help: 'LoRA alpha (scale alpha / r)',
    defaultText: 'rank',
  },
  targets: sft.targets,
  'top-k': {
    kind: 'integer',
    min: 1,
    valueName: 'K',
    help: "Take the KL on the teacher's K likeliest tokens only, both sides renormalised there (for large vocabularies)",
    defaultText: 'the whole vocabulary',
  },
  'teacher-template': {
    kind: 'string',
    valueName: 'FILE',
    help: "The teacher's user turn, with {demonstration} and {observation} in it",
    defaultText: 'the text above',
  },
  lr: {
    kind: 'number',
    above: 0,
    default: 1e-4,
    valueName: 'X',
    help: 'Learning rate (AdamW, constant)',
    defaultText: '1e-4',
  },
  temperature: {
    kind: 'number',
    above: 0,
    default: 1,
    valueName: 'T',
    help: "The student's sampling temperature (the KL is taken at temperature 1)",
  },
  'max-new-tokens': {
    kind: 'integer',
    min: 1,
    default: 48,
    valueName: 'N',
    help: 'Longest continuation the student samples per state (with --rollouts, per turn)',
  },
  'max-length': {
    kind: 'integer',
    min: 1,
    valueName: 'N',
    help: 'Longest teacher prompt plus continuation; longer states are left out',
    defaultText: "the model's max_position_embeddings",
  },
  'save-every': {
    kind: 'integer',
    min: 1,
    valueName: 'N',
    help: 'Also save a checkpoint every N steps to DIR/checkpoint-<step> (student, teacher/, optimizer, step)',
  },
  resume: {
    kind: 'string',
    valueName: 'DIR',
    help: 'Continue from a checkpoint-<step> folder of a run with the same settings; writes into --out',
  },
  seed: {
    kind: 'integer',
    min: 0,
    default: 0,
    valueName: 'N',
    help: 'Seed for the adapter, the state order and the samples',
  },
  threads: sft.threads,
  device: sft.device,
  force: sft.force,
  ...SDFT_ROLLOUT_OPTIONS,
});
