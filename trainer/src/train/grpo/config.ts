/** How group rewards are scaled into advantages (TRL's `scale_rewards`). */
export type ScaleRewards = 'group' | 'batch' | 'none';
/** How Σ loss·mask is normalised (TRL's `loss_type`). */
export type GrpoLossType = 'grpo' | 'bnpo' | 'dr_grpo' | 'dapo';
/** Token ratios, or one ratio per sequence from the mean log-ratio (GSPO). */
export type RatioLevel = 'token' | 'sequence';
/** One advantage per episode (GRPO), or per turn: the episode's plus a step-level one (GiGPO). */
export type AdvantageEstimator = 'grpo' | 'gigpo';

/**
 * The sampler → trainer importance correction (TRL's `vllm_importance_sampling_*`): weights
 * exp(lp_old − lp_sampler) per token, or exp(Σ) per sequence, clamped (`truncate`) or zeroed
 * outside [min, max] (`mask`).
 */
export interface SamplerCorrection {
  level: RatioLevel;
  mode: 'truncate' | 'mask';
  min: number;
  max: number;
}

/** The GRPO knobs, every one optional; {@link resolveGrpoConfig} fills TRL's defaults. */
export interface GrpoOptions {
  scaleRewards?: ScaleRewards;
  lossType?: GrpoLossType;
  ratioLevel?: RatioLevel;
  /** Clip range below 1 (and above, unless epsilonHigh is set). */
  epsilon?: number;
  epsilonHigh?: number;
  /** Caps the unclipped ratio at δ (two-sided GRPO); null = off. */
  delta?: number | null;
  /** Weight of the k3 KL to the adapter-free model; 0 = no reference pass. */
  beta?: number;
  /** Log the k3 KL to the reference as the `kl` metric even with beta 0 (costs the reference pass). */
  klMetric?: boolean;
  /** Updates per generation batch; old log-probs are taken before the first. */
  numIterations?: number;
  /** Completions that hit the length limit (no EOS) train nothing. */
  maskTruncatedCompletions?: boolean;
  /** dr_grpo's constant normaliser: the sampler's max completion tokens. */
  maxCompletionLength?: number;
  /** null turns the correction off (then sampler log-probs are not needed). */
  samplerCorrection?: Partial<SamplerCorrection> | null;
  /** Log the policy entropy (one more softmax over the vocabulary per scored token). */
  logEntropy?: boolean;
  /** gigpo: every sample carries per-token advantages (tokenAdvantages), one value per turn. */
  advantage?: AdvantageEstimator;
  /** gigpo: weight of the step-level advantage added to the episode's. */
  stepWeight?: number;
  /** gigpo: discount of the per-turn returns the step-level advantage compares. */
  gamma?: number;
}

export interface GrpoConfig {
  scaleRewards: ScaleRewards;
  lossType: GrpoLossType;
  ratioLevel: RatioLevel;
  epsilonLow: number;
  epsilonHigh: number;
  delta: number | null;
  beta: number;
  klMetric: boolean;
  numIterations: number;
  maskTruncatedCompletions: boolean;
  maxCompletionLength: number | null;
  samplerCorrection: SamplerCorrection | null;
  logEntropy: boolean;
  advantage: AdvantageEstimator;
  stepWeight: number;
  gamma: number;
}

export const DEFAULT_SAMPLER_CORRECTION: SamplerCorrection = { level: 'sequence', mode: 'mask', min: 0, max: 3 };

const oneOf = <T extends string>(name: string, value: T | undefined, allowed: readonly T[], fallback: T): T => {
  const v = value ?? fallback;
  if (!allowed.includes(v))
    throw new RangeError(`GRPO ${name} must be one of ${allowed.join(', ')}; got ${JSON.stringify(v)}`);
  return v;
};

const check = (ok: boolean, message: string): void => {
  if (!ok) throw new RangeError(`GRPO ${message}`);
};

/** Defaults as TRL's GRPOConfig has them; every inconsistent combination is refused by name. */
export function resolveGrpoConfig(options: GrpoOptions = {}): GrpoConfig {
  const epsilonLow = options.epsilon ?? 0.2;
  const epsilonHigh = options.epsilonHigh ?? epsilonLow;
  check(epsilonLow >= 0 && epsilonLow < 1, `epsilon must be in [0, 1); got ${epsilonLow}`);
  check(epsilonHigh >= 0 && Number.isFinite(epsilonHigh), `epsilonHigh must be ≥ 0; got ${epsilonHigh}`);
  const delta = options.delta ?? null;
  check(
    delta === null || (Number.isFinite(delta) && delta > 1),
    `delta must be > 1 (it caps a ratio that is 1 on-policy); got ${delta}`,
  );
  const beta = options.beta ?? 0;
  check(Number.isFinite(beta) && beta >= 0, `beta must be ≥ 0; got ${beta}`);
  const numIterations = options.numIterations ?? 1;
  check(
    Number.isInteger(numIterations) && numIterations >= 1,
    `numIterations must be an integer ≥ 1; got ${numIterations}`,
  );
  const lossType = oneOf('lossType', options.lossType, ['grpo', 'bnpo', 'dr_grpo', 'dapo'], 'dapo');
  const maxCompletionLength = options.maxCompletionLength ?? null;
  check(
    maxCompletionLength === null || (Number.isInteger(maxCompletionLength) && maxCompletionLength > 0),
    `maxCompletionLength must be a positive integer; got ${maxCompletionLength}`,
  );
  check(
    lossType !== 'dr_grpo' || maxCompletionLength !== null,
    `lossType dr_grpo needs maxCompletionLength (its normaliser)`,
  );
  const ratioLevel = oneOf('ratioLevel', options.ratioLevel, ['token', 'sequence'], 'token');
  const advantage = oneOf('advantage', options.advantage, ['grpo', 'gigpo'], 'grpo');
  check(
    advantage !== 'gigpo' || ratioLevel === 'token',
    'advantage gigpo gives each turn its own advantage, which one ratio per sequence (ratioLevel sequence) does not fit; use ratioLevel token',
  );
  const stepWeight = options.stepWeight ?? 1;
  check(Number.isFinite(stepWeight) && stepWeight >= 0, `stepWeight must be ≥ 0; got ${stepWeight}`);
  const gamma = options.gamma ?? 0.95;
  check(Number.isFinite(gamma) && gamma >= 0 && gamma <= 1, `gamma must be in [0, 1]; got ${gamma}`);
  return {
    scaleRewards: oneOf('scaleRewards', options.scaleRewards, ['group', 'batch', 'none'], 'group'),
    lossType,
    ratioLevel,
    epsilonLow,
    epsilonHigh,
    delta,
    beta,
    klMetric: options.klMetric ?? false,
    numIterations,
    maskTruncatedCompletions: options.maskTruncatedCompletions ?? false,
    maxCompletionLength,
    samplerCorrection: options.samplerCorrection === null ? null : resolveCorrection(options.samplerCorrection ?? {}),
    logEntropy: options.logEntropy ?? true,
    advantage,
    stepWeight,
    gamma,
  };
}

function resolveCorrection(c: Partial<SamplerCorrection>): SamplerCorrection {
  const d = DEFAULT_SAMPLER_CORRECTION;
  const min = c.min ?? d.min;
  const max = c.max ?? d.max;
  check(
    Number.isFinite(min) && min >= 0 && Number.isFinite(max) && max > min,
    `samplerCorrection bounds must satisfy 0 ≤ min < max < ∞; got [${min}, ${max}]`,
  );
  return {
    level: oneOf('samplerCorrection.level', c.level, ['token', 'sequence'], d.level),
    mode: oneOf('samplerCorrection.mode', c.mode, ['truncate', 'mask'], d.mode),
    min,
    max,
  };
}

/** Whether a step needs the reference's log-probs: for the KL term, or to log the KL. */
export function needsReference(config: GrpoConfig): boolean {
  return config.beta > 0 || config.klMetric;
}
