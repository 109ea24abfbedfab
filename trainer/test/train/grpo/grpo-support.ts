import type { LoraAdapter } from '../../../src/lora/adapter.js';
import { initLoraAdapter } from '../../../src/lora/adapter.js';
import { makeLoraConfig } from '../../../src/lora/config.js';
import { tinyModelConfig, tinyModelWeights } from '../../../src/model/tiny.js';
import type { GrpoOptions } from '../../../src/train/grpo/config.js';
import type { GrpoSample } from '../../../src/train/grpo/samples.js';
import { GrpoLearner } from '../../../src/train/grpo/step.js';

export const config = tinyModelConfig({
  architecture: 'qwen2',
  hiddenSize: 32,
  numHeads: 4,
  numKvHeads: 2,
  numLayers: 1,
});
export const weights = tinyModelWeights(config, 3);
export const lora = makeLoraConfig({ rank: 4, alpha: 8 });
export const EOS = config.eosTokenIds[0]!;
export const bytes = (s: string): number[] => [...Buffer.from(s, 'utf8')];

export function copyAdapter(a: LoraAdapter): LoraAdapter {
  return {
    config: a.config,
    modules: new Map(
      [...a.modules].map(([k, m]) => [
        k,
        { a: { shape: m.a.shape, data: m.a.data.slice() }, b: { shape: m.b.shape, data: m.b.data.slice() } },
      ]),
    ),
  };
}

export function learner(
  grpo: GrpoOptions,
  options: { adapter?: LoraAdapter; microBatchSize?: number; lr?: number } = {},
): Promise<GrpoLearner> {
  return GrpoLearner.create({
    config,
    weights,
    lora,
    grpo,
    adapter: options.adapter ?? initLoraAdapter(config, lora, 11),
    temperature: 0.9,
    schedule: { lr: options.lr ?? 1e-2 },
    ...(options.microBatchSize ? { microBatchSize: options.microBatchSize } : {}),
    runtime: { intraOpNumThreads: 1 },
  });
}

/** Fixed synthetic groups: two prompts, four completions each with distinct first letters, some rewarded. */
export function syntheticGroups(): GrpoSample[] {
  const groups: [string, [string, number][]][] = [
    [
      'color? ',
      [
        ['red', 1],
        ['blue', 0],
        ['pink', 1],
        ['teal', 0],
      ],
    ],
    [
      'pet? ',
      [
        ['cat', 0],
        ['dog', 1],
        ['fox', 0],
        ['owl', 0],
      ],
    ],
  ];
  return groups.flatMap(([prompt, completions], g) =>
    completions.map(([text, reward]) => ({
      promptIds: bytes(prompt),
      completionIds: [...bytes(text), EOS],
      group: `g${g}`,
      reward,
    })),
  );
}

/** The samples with sampler log-probs set to what the current policy gives (an on-policy sampler). */
export async function sampledBy(l: GrpoLearner, samples: readonly GrpoSample[]): Promise<GrpoSample[]> {
  const lp = await l.logprobs(samples);
  return samples.map((s, i) => ({ ...s, samplerLogprobs: Array.from(lp[i]!) }));
}

/** Σ of each completion's token log-probs under the current adapter. */
export async function completionLogprobs(l: GrpoLearner, samples: readonly GrpoSample[]): Promise<number[]> {
  return (await l.logprobs(samples)).map((lp) => lp.reduce((a, b) => a + b, 0));
}
