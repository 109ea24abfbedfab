/** TRL's `loss_type` values we implement: the sigmoid (Bradley–Terry) loss of DPO, and IPO's squared loss. */
export const DPO_LOSS_TYPES = ['sigmoid', 'ipo'] as const;
export type DpoLossType = (typeof DPO_LOSS_TYPES)[number];

/** The DPO knobs, with TRL's names in the comments. */
export interface DpoConfig {
  /** `beta`: how far the policy may move from the reference (the reward scale). */
  beta: number;
  /** `label_smoothing` (cDPO): the probability that a pair's preference is flipped; sigmoid only, in [0, 0.5). */
  labelSmoothing: number;
  /** `loss_type`. */
  lossType: DpoLossType;
}

export type DpoOptions = Partial<DpoConfig>;

/** TRL's defaults: β = 0.1, no label smoothing, sigmoid. */
export const DPO_DEFAULTS: DpoConfig = { beta: 0.1, labelSmoothing: 0, lossType: 'sigmoid' };

/** Fills defaults and refuses values TRL would reject or silently ignore; messages use TRL's names. */
export function resolveDpoConfig(options: DpoOptions = {}): DpoConfig {
  const config = { ...DPO_DEFAULTS, ...options };
  if (!Number.isFinite(config.beta) || config.beta <= 0)
    throw new RangeError(`DPO: beta must be a number > 0 (got ${config.beta})`);
  if (!DPO_LOSS_TYPES.includes(config.lossType))
    throw new RangeError(`DPO: loss_type must be one of ${DPO_LOSS_TYPES.join(', ')} (got ${config.lossType})`);
  const ls = config.labelSmoothing;
  if (!Number.isFinite(ls) || ls < 0 || ls >= 0.5)
    throw new RangeError(`DPO: label_smoothing must be in [0, 0.5) (got ${ls})`);
  if (ls > 0 && config.lossType !== 'sigmoid')
    throw new RangeError(`DPO: label_smoothing applies to loss_type sigmoid only (got ${config.lossType})`);
  return config;
}
