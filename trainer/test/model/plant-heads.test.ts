import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ModelRunner } from '../../src/graph/graph-runner.js';
import type { ModelConfig } from '../../src/model/config.js';
import { plantPreviousTokenHeads, previousTokenHeadsProblem } from '../../src/model/plant-heads.js';
import { createRng } from '../../src/model/random.js';
import { ropeInverseFrequencies } from '../../src/model/rope.js';
import type { TensorMap } from '../../src/model/tensor.js';
import { tinyModelConfig, tinyModelWeights, writeTinyModel } from '../../src/model/tiny.js';
import { useTempDirs } from '../support/temp-dir.js';

const tempDir = useTempDirs();
const O_PROJ = 'model.layers.0.self_attn.o_proj.weight';

/** A copy of the weights in which only query head `keep` of layer 0 writes to the residual. */
function onlyHead(config: ModelConfig, weights: TensorMap, keep: number): TensorMap {
  const copy: TensorMap = new Map([...weights].map(([name, t]) => [name, { shape: t.shape, data: t.data.slice() }]));
  const o = copy.get(O_PROJ)!.data;
  const width = config.numHeads * config.headDim;
  for (let c = 0; c < config.hiddenSize; c++)
    for (let col = 0; col < width; col++) if (Math.floor(col / config.headDim) !== keep) o[c * width + col] = 0;
  return copy;
}

/**
 * Which earlier position each position reads, seen through the real forward graph: change the token
 * at j and see how far the logits at i > j move. Only attention carries a change from j to i, and
 * with one head writing, the position it reads moves them most.
 */
async function mostInfluentialEarlier(config: ModelConfig, weights: TensorMap, tokens: number[]): Promise<number[]> {
  const runner = await ModelRunner.create(config, weights, { runtime: { intraOpNumThreads: 1 } });
  try {
    const perturbed = tokens.map((_, j) => tokens.map((t, k) => (k === j ? (t + 101) % 256 : t)));
    const logits = await runner.logits([tokens, ...perturbed]);
    const [, seq, vocab] = logits.dims as [number, number, number];
    const row = (b: number, i: number) => logits.data.subarray((b * seq + i) * vocab, (b * seq + i + 1) * vocab);
    return tokens.map((_, i) => {
      let best = -1;
      let largest = -1;
      for (let j = 0; j < i; j++) {
        const [base, moved] = [row(0, i), row(j + 1, i)];
        let change = 0;
        for (let v = 0; v < vocab; v++) change += (moved[v]! - base[v]!) ** 2;
        if (change > largest) [largest, best] = [change, j];
      }
      return best;
    });
  } finally {
    await runner.release();
  }
}

/** Asserts head h of the planted weights reads position i − offsets[h] wherever there is one. */
async function expectHeadsRead(config: ModelConfig, weights: TensorMap, offsets: readonly number[]): Promise<void> {
  const random = createRng(9);
  const tokens = Array.from({ length: 24 }, () => Math.floor(random.next() * 256));
  for (const [head, offset] of offsets.entries()) {
    const read = await mostInfluentialEarlier(config, onlyHead(config, weights, head), tokens);
    const expected = tokens.map((_, i) => (i >= offset ? i - offset : undefined));
    expect(
      read.map((j, i) => (i >= offset ? j : undefined)),
      `head ${head} (offset ${offset})`,
    ).toEqual(expected);
  }
}

describe('previous-token heads', () => {
  it.each([
    { numHeads: 4, numKvHeads: 2 },
    { numHeads: 4, numKvHeads: 1 },
    { numHeads: 4, numKvHeads: 4 },
  ])(
    'head h reads position i − (h + 1) at every position (%j: offsets come from q, k shared per kv head)',
    async (heads) => {
      const config = tinyModelConfig({ architecture: 'qwen2', hiddenSize: 64, ...heads });
      await expectHeadsRead(config, tinyModelWeights(config, 5, { previousTokenHeads: 4 }), [1, 2, 3, 4]);
    },
  );

  it.each([[[3]], [[4]], [[5, 2]]])(
    'plants explicit offsets %j: head h reads i − offsets[h] (not 1..N, not in order)',
    async (offsets) => {
      const config = tinyModelConfig({ architecture: 'qwen2', hiddenSize: 64, numHeads: 4, numKvHeads: 2 });
      await expectHeadsRead(config, tinyModelWeights(config, 5, { previousTokenOffsets: offsets }), offsets);
    },
  );

  it('is one plant: offsets 1..N are previousTokenHeads N, and both at once is refused', () => {
    const config = tinyModelConfig({ architecture: 'qwen2' });
    const [byCount, byOffsets] = [
      tinyModelWeights(config, 6, { previousTokenHeads: 3 }),
      tinyModelWeights(config, 6, { previousTokenOffsets: [1, 2, 3] }),
    ];
    for (const [name, tensor] of byCount) expect(byOffsets.get(name)!.data, name).toEqual(tensor.data);
    expect(() => tinyModelWeights(config, 6, { previousTokenHeads: 1, previousTokenOffsets: [3] })).toThrow(
      'previous-token heads: give previousTokenHeads or previousTokenOffsets, not both',
    );
  });

  it('keeps the peak at i − offset over 4096 positions at head width 64 (the score is the biases rotated)', () => {
    const config = tinyModelConfig({ architecture: 'qwen2', hiddenSize: 256, numHeads: 4, numKvHeads: 2 });
    const weights = tinyModelWeights(config, 1, { previousTokenHeads: 4 });
    const tensor = (name: string) => weights.get(`model.layers.0.self_attn.${name}`)!.data;
    const d = config.headDim;
    // Planted q and k weights are zero, so every token's q and k are the biases: scores depend on positions only.
    for (const name of ['q_proj.weight', 'k_proj.weight'])
      expect(
        tensor(name)
          .subarray(0, 2 * d * 256)
          .every((v) => v === 0),
      ).toBe(true);
    const inverse = ropeInverseFrequencies(d, config.ropeTheta, config.ropeScaling);
    const rotate = (x: Float32Array, position: number) =>
      Array.from({ length: d }, (_, n) => {
        const pair = n % (d / 2);
        const [cos, sin] = [Math.cos(position * inverse[pair]!), Math.sin(position * inverse[pair]!)];
        return n < d / 2 ? x[pair]! * cos - x[pair + d / 2]! * sin : x[pair + d / 2]! * cos + x[pair]! * sin;
      });
    const query = 4095;
    for (let head = 0; head < 4; head++) {
      const kv = Math.floor(head / 2);
      const q = rotate(tensor('q_proj.bias').subarray(head * d, (head + 1) * d), query);
      const scores = Array.from({ length: query + 1 }, (_, j) => {
        const k = rotate(tensor('k_proj.bias').subarray(kv * d, (kv + 1) * d), j);
        return q.reduce((sum, v, n) => sum + v * k[n]!, 0) / Math.sqrt(d);
      });
      const peak = query - (head + 1);
      const runnerUp = Math.max(...scores.filter((_, j) => j !== peak));
      expect(scores[peak]! - runnerUp, `head ${head}`).toBeGreaterThan(8);
    }
  });

  it('gives each planted head its own write: heads sharing a kv head write through different o_proj columns', () => {
    const config = tinyModelConfig({ architecture: 'qwen2', hiddenSize: 64, numHeads: 4, numKvHeads: 1 });
    const o = tinyModelWeights(config, 2, { previousTokenHeads: 4 }).get(O_PROJ)!.data;
    const width = config.numHeads * config.headDim;
    const block = (head: number) =>
      Array.from({ length: config.hiddenSize * config.headDim }, (_, n) => {
        const [c, r] = [Math.floor(n / config.headDim), n % config.headDim];
        return o[c * width + head * config.headDim + r]!;
      });
    const cosine = (a: number[], b: number[]) =>
      a.reduce((s, v, n) => s + v * b[n]!, 0) / Math.hypot(...a) / Math.hypot(...b);
    for (let a = 0; a < 4; a++)
      for (let b = a + 1; b < 4; b++) expect(Math.abs(cosine(block(a), block(b)))).toBeLessThan(0.2);
  });

  it('changes only layer 0 attention; other tensors keep their seeded values', () => {
    const config = tinyModelConfig({ architecture: 'qwen2' });
    const [plain, planted] = [tinyModelWeights(config, 4), tinyModelWeights(config, 4, { previousTokenHeads: 2 })];
    const changed = [...plain.keys()].filter(
      (name) => !plain.get(name)!.data.every((v, n) => v === planted.get(name)!.data[n]),
    );
    expect(changed.sort()).toEqual(
      ['q_proj.weight', 'q_proj.bias', 'k_proj.weight', 'k_proj.bias', 'v_proj.weight', 'v_proj.bias', 'o_proj.weight']
        .map((part) => `model.layers.0.self_attn.${part}`)
        .sort(),
    );
  });

  it('writes the same bytes as before the option existed when it is 0 (pinned digest)', async () => {
    const digest = async (options: Parameters<typeof writeTinyModel>[1]) => {
      const dir = await tempDir();
      await writeTinyModel(dir, options);
      return createHash('sha256')
        .update(await readFile(join(dir, 'model.safetensors')))
        .digest('hex');
    };
    const before = 'd420c11dc3c8352e513cb88893440fa2bfc46fe1dce98b3e2b1de1b16efbcfe3';
    expect(await digest({})).toBe(before);
    expect(await digest({ previousTokenHeads: 0 })).toBe(before);
    expect(await digest({ previousTokenOffsets: [] })).toBe(before);
    expect(await digest({ previousTokenHeads: 1 })).not.toBe(before);
  });

  it('refuses models without q/k biases, bad offsets and more heads than there are, with a reason', () => {
    const qwen2 = tinyModelConfig({ architecture: 'qwen2' });
    expect(previousTokenHeadsProblem(qwen2, [1, 2, 3, 4])).toBeUndefined();
    expect(previousTokenHeadsProblem(qwen2, [1, 2, 3, 4, 5])).toBe('at most one per query head: 4 (got 5)');
    expect(previousTokenHeadsProblem(qwen2, [3, 0])).toBe('offsets must be positive integers (got 0)');
    expect(previousTokenHeadsProblem(qwen2, [2, 2])).toBe('offsets must differ (got 2,2)');
    for (const architecture of ['llama', 'qwen3'] as const) {
      const config = tinyModelConfig({ architecture });
      expect(() => plantPreviousTokenHeads(config, tinyModelWeights(config, 0), [1], createRng(0))).toThrow(
        `previous-token heads: needs q/k biases to carry the offset, which only qwen2 has (got ${architecture})`,
      );
    }
  });
});
