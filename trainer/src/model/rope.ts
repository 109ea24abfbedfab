import type { JsonObjectReader } from './json-reader.js';
import { describeValue } from './json-reader.js';

/** RoPE frequency scalings we implement; both keep HF's attention factor of 1. */
export type RopeScaling =
  | { type: 'linear'; factor: number }
  | {
      type: 'llama3';
      factor: number;
      lowFreqFactor: number;
      highFreqFactor: number;
      originalMaxPositionEmbeddings: number;
    };

const SUPPORTED = 'supported: default, linear, llama3';

/**
 * Reads `rope_scaling` (transformers ≤ 4.x) or `rope_parameters` (5.x). Scalings that change the
 * attention factor or depend on the sequence length (yarn, dynamic, longrope) are refused rather
 * than silently run unscaled.
 */
export function parseRopeScaling(section: JsonObjectReader | undefined): RopeScaling | null {
  if (section === undefined) return null;
  const typeKey = section.has('rope_type') ? 'rope_type' : 'type';
  const type = section.has(typeKey) ? section.raw(typeKey) : 'default';
  if (type === 'default') return null;
  if (type === 'linear') return { type, factor: section.positiveNumber('factor') };
  if (type === 'llama3') {
    const scaling = {
      type,
      factor: section.positiveNumber('factor'),
      lowFreqFactor: section.positiveNumber('low_freq_factor'),
      highFreqFactor: section.positiveNumber('high_freq_factor'),
      originalMaxPositionEmbeddings: section.positiveInt('original_max_position_embeddings'),
    } as const;
    if (scaling.highFreqFactor <= scaling.lowFreqFactor) {
      throw section.fail(
        'high_freq_factor',
        `must be larger than low_freq_factor (got ${scaling.highFreqFactor} ≤ ${scaling.lowFreqFactor})`,
      );
    }
    return scaling;
  }
  throw section.fail(typeKey, `${describeValue(type)} is not supported (${SUPPORTED})`);
}

/**
 * Inverse frequencies θ^(−2i/d) for i < headDim/2, scaled the way transformers'
 * `ROPE_INIT_FUNCTIONS` does. Angle for position p and pair i is p · invFreq[i].
 */
export function ropeInverseFrequencies(headDim: number, theta: number, scaling: RopeScaling | null): Float64Array {
  const half = headDim / 2;
  const inverse = new Float64Array(half);
  for (let i = 0; i < half; i++) inverse[i] = 1 / Math.pow(theta, (2 * i) / headDim);
  if (scaling?.type === 'linear') return inverse.map((f) => f / scaling.factor);
  if (scaling?.type === 'llama3') return inverse.map((f) => llama3Scaled(f, scaling));
  return inverse;
}

// Long wavelengths are slowed by `factor`, short ones kept, the band between interpolated smoothly.
function llama3Scaled(frequency: number, s: Extract<RopeScaling, { type: 'llama3' }>): number {
  const lowFreqWavelength = s.originalMaxPositionEmbeddings / s.lowFreqFactor;
  const highFreqWavelength = s.originalMaxPositionEmbeddings / s.highFreqFactor;
  const wavelength = (2 * Math.PI) / frequency;
  if (wavelength < highFreqWavelength) return frequency;
  if (wavelength > lowFreqWavelength) return frequency / s.factor;
  const smooth =
    (s.originalMaxPositionEmbeddings / wavelength - s.lowFreqFactor) / (s.highFreqFactor - s.lowFreqFactor);
  return (1 - smooth) * (frequency / s.factor) + smooth * frequency;
}
