import { defineCommand } from '../../command.js';
import { SDFT_OPTIONS } from './options.js';
import { runSdftJob } from './job.js';
import { parseSdftSettings } from './settings.js';

export const sdftCommand = defineCommand({
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
  options: SDFT_OPTIONS,
  examples: [
    'gauntlet-trainer sdft --model models/tiny --demo runs/demo/demo.jsonl --out runs/sdft --epochs 4 --lr 1e-3',
    'gauntlet-trainer sdft --model models/qwen2.5-0.5b --demo runs/demo/demo.json --task login-user --out runs/sdft \\',
    '    --init-adapter runs/sft --top-k 64 --ema-alpha 0.1 --save-every 10',
  ],
  run: async (context) => runSdftJob(await parseSdftSettings(context), context.io, context.signal),
});
