import { defineCommand } from '../../command.js';
import { runDpoJob } from './job.js';
import { DPO_OPTIONS } from './options.js';
import { parseDpoSettings } from './settings.js';

export const dpoCommand = defineCommand({
  name: 'dpo',
  summary: 'Train a LoRA adapter (or the whole model) by DPO on preference pairs (chosen vs rejected) in JSONL',
  description: [
    'Direct Preference Optimization: raises the log-probability of each chosen completion over',
    'the rejected one, relative to a frozen reference, and writes the adapter as a PEFT folder.',
    'With --train full (or parts) base weights are trained too and the result is a model folder,',
    'as sft writes it; the reference is the model as it was before training.',
    '',
    "Data: TRL's preference JSONL, one pair per line (what `gauntlet-env collect` writes to dpo.jsonl):",
    '  {"prompt": [messages], "chosen": [messages], "rejected": [messages]}',
    "    rendered with the model's chat template; the assistant messages of each completion are",
    '    compared, the prompt is context;',
    '  {"chosen": [messages], "rejected": [messages]}   the shared leading messages are the prompt;',
    '  {"prompt": "...", "chosen": "...", "rejected": "..."}   plain text, no template.',
    'Other keys on a line are ignored; blank lines are skipped. A bad line is reported as',
    'file:line with the field to fix. Pairs cut to --max-length are reported; pairs left with',
    'nothing to compare are left out and reported by line.',
    '',
    'Reference: the starting adapter (--init-adapter), frozen; else the base model. Its',
    'log-probs are computed once, before training. --ref-adapter or --ref-base choose another.',
    '',
    'Loss (TRL names): sigmoid  −log σ(β·z), with --label-smoothing ε as cDPO;  ipo  (z − 1/(2β))²',
    'on length-averaged log-probs; z = (policy − reference log-prob of chosen) − (same for rejected).',
    '',
    'Progress goes to stderr, one line per optimizer step (loss, reward margin, accuracy); --metrics',
    'writes every step as JSONL (loss, rewards/chosen, rewards/rejected, rewards/margins,',
    'rewards/accuracies, logps/chosen, logps/rejected, grad_norm, learning_rate). Ctrl-C stops',
    'at the next micro-batch and writes nothing more; exit code 130.',
  ].join('\n'),
  positionals: [],
  options: DPO_OPTIONS,
  examples: [
    'gauntlet-trainer dpo --data runs/collect/dpo.jsonl --out runs/dpo --steps 50 --lr 1e-4',
    'gauntlet-trainer dpo --model models/qwen2.5-0.5b --init-adapter runs/sft --data dpo.jsonl --out runs/dpo \\',
    '    --beta 0.1 --batch-size 4 --grad-accum 4 --metrics runs/dpo-metrics.jsonl',
  ],
  run: (context) => runDpoJob(parseDpoSettings(context), context.io, context.signal),
});
