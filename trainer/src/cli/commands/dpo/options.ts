import { DPO_DEFAULTS, DPO_LOSS_TYPES } from '../../../train/dpo/config.js';
import { defineOptions, type OptionSpec } from '../../command.js';
import { SFT_OPTIONS as sft } from '../sft/options.js';

/** LoRA adapters move less per step than a full model: a higher rate than TRL's full-model 1e-6. */
export const DPO_DEFAULT_LR = 5e-5;

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
    help: "The DPO loss: sigmoid (the paper's) or ipo (IPO's squared loss)",
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
