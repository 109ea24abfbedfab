import type { Command } from '../../command.js';
import { sftCommand } from '../sft/sft.js';
import { runSdftJob } from './job.js';
import { parseSdftSettings } from './settings.js';

const sft = sftCommand.options;

export const sdftCommand: Command = {
  name: 'sdft',
  summary: 'Learn from one demonstration: distil a demo-conditioned EMA teacher into a LoRA adapter (SDFT)',
  description: [
    'Self-Distillation Fine-Tuning (arXiv 2601.19897). From each state of the demonstration the',
    'student (the model with the adapter being trained) samples its own continuation. The teacher',
    'is the same model with the demonstration written into its prompt, before the goal, and its',
    "adapter is an exponential moving average of the student's (teacher ← (1 − α)·teacher + α·student",
    'after every step). The loss is the KL between the two next-token distributions at each token',
    'the student sampled; only the adapter trains, so the base model is unchanged.',
    '',
    "Sampling is in-process for now: the student samples from the demo's recorded states (the",
    "observations in demo.jsonl) with the trainer's own generation engine, not by rolling out on",
    'the task through the rollout tier as grpo does. --task only checks the demo is of that task.',
    '',
    "Teacher prompt: the state's user turn becomes, by default,",
    '  # Demonstration',
    '  This task was solved before. These actions solved it, in order:',
    '  {demonstration}',
    '',
    '  {observation}',
    "where {demonstration} is the demo's actions, numbered, and {observation} the turn as the",
    'student sees it (it opens with the goal). --teacher-template FILE replaces this text.',
    '',
    'Writes a PEFT folder to --out, one metrics.jsonl row per step (loss, forward_kl, reverse_kl,',
    'grad_norm, sampled_tokens, …) and a progress line per step on stderr. Checkpoints',
    '(--save-every) hold the student, the teacher (teacher/), AdamW moments and the step;',
    '--resume DIR/checkpoint-<step> with the same settings continues. Ctrl-C stops at the next',
    'step and writes no final adapter; exit code 130.',
  ].join('\n'),
  positionals: [],
  options: {
    model: {
      ...sft['model']!,
      description: 'Hugging Face model folder (config.json, *.safetensors, tokenizer.json with a chat template)',
    },
    demo: {
      type: 'string',
      valueName: 'FILE',
      description:
        'The demonstration: demo.jsonl from gauntlet-agent record (or any SFT chat JSONL, a demonstration per line), or demo.json (its demo.jsonl beside it is read) (required)',
    },
    task: { type: 'string', valueName: 'NAME', description: 'The task the demonstration must be of' },
    out: { type: 'string', valueName: 'DIR', description: "Folder for the student's PEFT adapter (required)" },
    'init-adapter': {
      type: 'string',
      valueName: 'DIR',
      description: 'Start student and teacher from this PEFT adapter (its rank and targets are used)',
      defaultText: 'a fresh adapter (B = 0: the base model)',
    },
    'ema-alpha': {
      type: 'string',
      valueName: 'A',
      description: "The teacher's EMA rate per step, 0 to 1 (0 keeps the starting teacher)",
      defaultText: '0.02',
    },
    'distillation-alpha': {
      type: 'string',
      valueName: 'M',
      description: 'KL mix, 0 to 1: 0 = forward KL(teacher ‖ student), 1 = reverse KL(student ‖ teacher)',
      defaultText: '1 (reverse, as the paper)',
    },
    epochs: { type: 'string', valueName: 'N', description: "Passes over the demo's states", defaultText: '2' },
    'batch-size': { type: 'string', valueName: 'N', description: 'Demo states per optimizer step', defaultText: '4' },
    'lora-rank': { type: 'string', valueName: 'R', description: 'LoRA rank of a fresh adapter', defaultText: '16' },
    'lora-alpha': { type: 'string', valueName: 'A', description: 'LoRA alpha (scale alpha / r)', defaultText: 'rank' },
    targets: sft['targets']!,
    'top-k': {
      type: 'string',
      valueName: 'K',
      description:
        "Take the KL on the teacher's K likeliest tokens only, both sides renormalised there (for large vocabularies)",
      defaultText: 'the whole vocabulary',
    },
    'teacher-template': {
      type: 'string',
      valueName: 'FILE',
      description: "The teacher's user turn, with {demonstration} and {observation} in it",
      defaultText: 'the text above',
    },
    lr: { type: 'string', valueName: 'X', description: 'Learning rate (AdamW, constant)', defaultText: '1e-4' },
    temperature: {
      type: 'string',
      valueName: 'T',
      description: "The student's sampling temperature (the KL is taken at temperature 1)",
      defaultText: '1',
    },
    'max-new-tokens': {
      type: 'string',
      valueName: 'N',
      description: 'Longest continuation the student samples per state',
      defaultText: '48',
    },
    'max-length': {
      type: 'string',
      valueName: 'N',
      description: 'Longest teacher prompt plus continuation; longer states are left out',
      defaultText: "the model's max_position_embeddings",
    },
    'save-every': {
      type: 'string',
      valueName: 'N',
      description: 'Also save a checkpoint every N steps to DIR/checkpoint-<step> (student, teacher/, optimizer, step)',
    },
    resume: {
      type: 'string',
      valueName: 'DIR',
      description: 'Continue from a checkpoint-<step> folder of a run with the same settings; writes into --out',
    },
    seed: {
      type: 'string',
      valueName: 'N',
      description: 'Seed for the adapter, the state order and the samples',
      defaultText: '0',
    },
    threads: sft['threads']!,
    device: sft['device']!,
    force: sft['force']!,
  },
  examples: [
    'gauntlet-trainer sdft --model models/tiny --demo runs/demo/demo.jsonl --out runs/sdft --epochs 4 --lr 1e-3',
    'gauntlet-trainer sdft --model models/qwen2.5-0.5b --demo runs/demo/demo.json --task login-user --out runs/sdft \\',
    '    --init-adapter runs/sft --top-k 64 --ema-alpha 0.1 --save-every 10',
  ],
  run: async (context) => runSdftJob(await parseSdftSettings(context), context.io, context.signal),
};
