import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { initLoraAdapter } from '../../src/lora/adapter.js';
import { makeLoraConfig, type LoraConfig } from '../../src/lora/config.js';
import type { RopeScaling } from '../../src/model/config.js';
import { ModelTokenizer } from '../../src/model/tokenizer.js';
import { tinyModelConfig, tinyModelWeights, writeTinyModel, type TinyModelOptions } from '../../src/model/tiny.js';
import { referenceLogits } from '../support/reference-forward.js';
import { useTempDirs } from '../support/temp-dir.js';
import { maxAbsDiff, withRandomB } from '../support/tiny-models.js';

/**
 * Golden values from Hugging Face transformers + PEFT (float64) on the tiny models of
 * fixtures/hf-golden/cases.json: the folders we write load there, our adapter files load in PEFT,
 * and the reference forward matches transformers' modeling code. Regenerate with generate.py.
 */
interface GoldenCase {
  name: string;
  chat: string;
  ids: number[];
  positions: number[];
  base: number[][];
  adapter: number[][];
}
interface CaseSpec {
  name: string;
  model: TinyModelOptions;
  ropeScaling?: RopeScaling;
  lora: Partial<LoraConfig> & { seed: number };
}

const fixture = (name: string) =>
  JSON.parse(readFileSync(new URL(`./fixtures/hf-golden/${name}`, import.meta.url), 'utf8'));
const spec = fixture('cases.json') as { text: string; cases: CaseSpec[] };
const golden = fixture('golden.json') as { transformers: string; cases: GoldenCase[] };
const tempDir = useTempDirs();

// transformers computes RoPE angles in float32 even for a float64 model; that is the whole gap.
const TOLERANCE = 1e-6;

describe(`reference forward vs transformers ${golden.transformers}`, () => {
  it.each(spec.cases.map((c, i) => [c.name, c, golden.cases[i]!] as const))('%s', async (_name, testCase, expected) => {
    expect(expected.name).toBe(testCase.name);
    const dir = await tempDir();
    await writeTinyModel(dir, testCase.model);
    const tokenizer = await ModelTokenizer.load(dir);
    const chat = tokenizer.applyChatTemplate([{ role: 'user', content: spec.text }], { addGenerationPrompt: true });
    expect(chat).toBe(expected.chat);
    expect(tokenizer.encode(chat)).toEqual(expected.ids);

    const config = { ...tinyModelConfig(testCase.model), ropeScaling: testCase.ropeScaling ?? null };
    const model = { config, weights: tinyModelWeights(config, testCase.model.seed ?? 0, testCase.model) };
    const { seed, ...loraOptions } = testCase.lora;
    const adapter = withRandomB(initLoraAdapter(config, makeLoraConfig(loraOptions), seed), seed + 1000);
    const pick = (logits: Float64Array[]) => expected.positions.map((p) => logits[p]!);
    const base = maxAbsDiff(pick(referenceLogits(model, expected.ids)), expected.base);
    const adapted = maxAbsDiff(pick(referenceLogits(model, expected.ids, { adapter })), expected.adapter);
    console.info(
      `${testCase.name}: max |Δlogit| vs transformers ${base.toExponential(2)} base, ${adapted.toExponential(2)} with adapter`,
    );
    expect(base).toBeLessThan(TOLERANCE);
    expect(adapted).toBeLessThan(TOLERANCE);
    expect(maxAbsDiff(expected.base, expected.adapter)).toBeGreaterThan(1e-3);
  });
});
