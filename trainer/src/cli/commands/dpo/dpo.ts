import { DPO_DEFAULTS, DPO_LOSS_TYPES } from '../../../train/dpo/config.js';
import { defineCommand, defineOptions, type OptionSpec } from '../../command.js';
import { runDpoJob } from './job.js';
import { DPO_DEFAULT_LR, parseDpoSettings } from './settings.js';
import { SFT_OPTIONS as sft } from '../sft/sft.js';

// The training flags are SFT's (one parser reads both); those whose meaning shifts say so here.
const shaped = <S extends OptionSpec>(spec: S): S => ({
  ...spec,
  help: `${spec.help} (not with --init-adapter)`,
});

/** dpo's flags: sft's training knobs and the preference ones. */
export const DPO_OPTIONS = defineOptions({
  model: {
    ...sft.model,
    defaultText: 'the built-in tiny model (qwen2, seed 0; the adapter records it as `tiny`)',
  },
  data: { kind: 'string', valueName: 'FILE', help: 'Preference pairs, JSONL (required)' },
  out: sft.out,
  train: {
    ...sft.train,
    help: `${sft.train.help}; the reference is then the model before training (or --ref-adapter on it)`,
  },
  'init-adapter': {
    kind: 'string',
    valueName: 'DIR',
    help: 'PEFT adapter to start from (e.g. an SFT run); also the reference unless told otherwise',
    defaultText: 'a fresh LoRA adapter',
  },
  'ref-adapter': {
    kind: 'string',
    valueName: 'DIR',
    help: 'PEFT adapter whose frozen log-probs are the reference',
    defaultText: '--init-adapter, else none',
  },
  'ref-base': { kind: 'boolean', help: 'Use the base model (no adapter) as the reference' },
  beta: {
    kind: 'number',
    above: 0,
    default: DPO_DEFAULTS.beta,
    valueName: 'X',
    help: 'β: the reward scale; higher keeps the policy closer to the reference',
  },
  'label-smoothing': {
    kind: 'number',
    min: 0,
    default: DPO_DEFAULTS.labelSmoothing,
    valueName: 'X',
    help: 'cDPO: probability in [0, 0.5) that a preference is flipped (sigmoid only)',
  },
  'loss-type': {
    kind: 'string',
    valueName: 'NAME',
    help: 'sigmoid or ipo',
    choices: DPO_LOSS_TYPES,
    default: DPO_DEFAULTS.lossType,
  },
  epochs: {
    kind: 'integer',
    min: 1,
    default: 1,
    valueName: 'N',
    help: 'Passes over the pairs (when --steps is not given)',
  },
  steps: { ...sft.steps, defaultText: 'epochs × pairs / pairs per step' },
  'batch-size': { ...sft['batch-size'], help: 'Pairs per batch' },
  'grad-accum': {
    ...sft['grad-accum'],
    help: 'Batches whose gradients are summed per optimizer step (a step sees batch-size × N pairs)',
  },
  'micro-batch': {
    ...sft['micro-batch'],
    help: 'Pairs per forward/backward pass (both sides together); lower it to bound memory',
  },
  lr: { ...sft.lr, default: DPO_DEFAULT_LR, defaultText: DPO_DEFAULT_LR.toExponential() },
  warmup: sft.warmup,
  schedule: sft.schedule,
  rank: shaped(sft.rank),
  alpha: shaped(sft.alpha),
  targets: shaped(sft.targets),
  rslora: shaped(sft.rslora),
  seed: sft.seed,
  'max-length': {
    kind: 'integer',
    min: 1,
    valueName: 'N',
    help: 'Keep the first N tokens of each side (prompt + completion); longer pairs are reported',
    defaultText: "the model's max positions",
  },
  'save-every': sft['save-every'],
  metrics: { kind: 'string', valueName: 'FILE', help: "Write every step's metrics as JSONL" },
  threads: sft.threads,
  device: sft.device,
  force: sft.force,
});

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
