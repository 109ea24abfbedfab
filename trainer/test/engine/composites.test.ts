import { describe, expect, test } from 'vitest';
import {
  attention,
  attentionFeatureMajor,
  attentionWithPast,
  causalMaskBias,
} from '../../src/engine/composites/attention.js';
import { distillationKl } from '../../src/engine/composites/distill.js';
import { tokenLogProbs } from '../../src/engine/composites/losses.js';
import { rmsNorm, silu, swiglu } from '../../src/engine/composites/norm.js';
import {
  applyQueryRope,
  applyQueryRopeFeatureMajor,
  applyRope,
  applyRopeFeatureMajor,
  ropeTables,
} from '../../src/engine/composites/rope.js';
import { logSoftmax, logSumExp, softmax } from '../../src/engine/composites/softmax.js';
import type { GradcheckCase } from '../../src/engine/gradcheck.js';
import type { Tensor } from '../../src/engine/graph.js';
import { gradcheck } from '../../src/engine/gradcheck.js';
import { transposeLast2 } from '../../src/engine/helpers.js';
import { f64, i64 } from '../../src/engine/host-tensor.js';
import * as o from '../../src/engine/ops.js';
import { seededRandom, uniform } from '../../src/engine/random.js';
import { evaluate, maxAbsDiff } from './run-graph.js';
import * as ref from './reference-math.js';

const random = seededRandom(3);

describe('composites agree with plain TypeScript', () => {
  test('softmax and log-softmax stay finite on large logits', async () => {
    const x = Float64Array.from([1000, 1001, 999, -5, 0, 0, 2, 1, 3, -1]);
    const input = [{ name: 'x', dtype: 'float64' as const, shape: [2, 5], value: f64([2, 5], x) }];
    const sm = await evaluate(input, ([t]) => softmax(t!));
    const lsm = await evaluate(input, ([t]) => logSoftmax(t!));
    expect(maxAbsDiff(sm.data as Float64Array, ref.softmaxRows(x, 5))).toBeLessThan(1e-12);
    expect(maxAbsDiff(lsm.data as Float64Array, ref.logSoftmaxRows(x, 5))).toBeLessThan(1e-12);
  });

  test('RMSNorm', async () => {
    const x = uniform(random, 12, -2, 2);
    const w = uniform(random, 4, 0.5, 1.5);
    const out = await evaluate(
      [
        { name: 'x', dtype: 'float64', shape: [3, 4], value: f64([3, 4], x) },
        { name: 'w', dtype: 'float64', shape: [4], value: f64([4], w) },
      ],
      ([a, b]) => rmsNorm(a!, b!, 1e-6),
    );
    expect(maxAbsDiff(out.data as Float64Array, ref.rmsNormRows(x, w, 1e-6))).toBeLessThan(1e-12);
  });

  test('RoPE rotates pairs (i, i + d/2) by position · θ^(−2i/d)', async () => {
    const [b, h, t, d] = [1, 2, 3, 4];
    const x = uniform(random, b * h * t * d, -1, 1);
    const inv = [1, 0.01];
    const out = await evaluate(
      [
        { name: 'x', dtype: 'float64', shape: [b, h, t, d], value: f64([b, h, t, d], x) },
        { name: 'pos', dtype: 'int64', shape: [b, t], value: i64([b, t], [0, 1, 5]) },
      ],
      ([q, pos]) => applyRope(q!, ropeTables(pos!, inv, 'float64')),
    );
    expect(maxAbsDiff(out.data as Float64Array, ref.rope(x, [b, h, t, d], [0, 1, 5], inv))).toBeLessThan(1e-12);
  });

  test('queries rotated with the pre-scaled tables give the same attention as scaling inside it', async () => {
    const [b, h, kv, t, d] = [1, 4, 2, 3, 4];
    const [q, k, v] = [h, kv, kv].map((n) => uniform(random, b * n * t * d, -1, 1));
    const inputs = [
      { name: 'q', dtype: 'float64' as const, shape: [b, h, t, d], value: f64([b, h, t, d], q!) },
      { name: 'k', dtype: 'float64' as const, shape: [b, kv, t, d], value: f64([b, kv, t, d], k!) },
      { name: 'v', dtype: 'float64' as const, shape: [b, kv, t, d], value: f64([b, kv, t, d], v!) },
      { name: 'pos', dtype: 'int64' as const, shape: [b, t], value: i64([b, t], [0, 1, 2]) },
    ];
    const run = (prescaled: boolean) =>
      evaluate(inputs, ([qq, kk, vv, pos]) => {
        const tables = ropeTables(pos!, [1, 0.01], 'float64');
        const bias = causalMaskBias(o.cast(o.greaterOrEqual(pos!, 0), 'int64'), 'float64');
        const rotated = prescaled ? applyQueryRope(qq!, tables) : applyRope(qq!, tables);
        return attention(rotated, applyRope(kk!, tables), vv!, bias, kv, prescaled);
      });
    const [folded, plain] = await Promise.all([run(true), run(false)]);
    expect(maxAbsDiff(folded.data as Float64Array, plain.data as Float64Array)).toBeLessThan(1e-12);
    // The scale really is in the query tables: rotated queries are RoPE's divided by √d.
    const ratio = await evaluate(inputs, ([qq, , , pos]) => {
      const tables = ropeTables(pos!, [1, 0.01], 'float64');
      return o.div(applyQueryRope(qq!, tables), applyRope(qq!, tables));
    });
    for (const r of ratio.data as Float64Array) expect(r).toBeCloseTo(1 / Math.sqrt(d), 12);
  });

  test('grouped-query attention with causal and padding masks', async () => {
    const [b, h, kv, t, d] = [2, 4, 2, 3, 2];
    const q = uniform(random, b * h * t * d, -1, 1);
    const k = uniform(random, b * kv * t * d, -1, 1);
    const v = uniform(random, b * kv * t * d, -1, 1);
    const mask = [1, 1, 1, 1, 1, 0];
    const out = await evaluate(
      [
        { name: 'q', dtype: 'float64', shape: ['B', h, 'T', d], value: f64([b, h, t, d], q) },
        { name: 'k', dtype: 'float64', shape: ['B', kv, 'T', d], value: f64([b, kv, t, d], k) },
        { name: 'v', dtype: 'float64', shape: ['B', kv, 'T', d], value: f64([b, kv, t, d], v) },
        { name: 'mask', dtype: 'int64', shape: ['B', 'T'], value: i64([b, t], mask) },
      ],
      ([qq, kk, vv, m]) => attention(qq!, kk!, vv!, causalMaskBias(m!, 'float64'), kv),
    );
    expect(out.dims).toEqual([b, h, t, d]);
    expect(maxAbsDiff(out.data as Float64Array, ref.attention(q, k, v, mask, [b, h, kv, t, d]))).toBeLessThan(1e-12);
  });

  test('feature-major heads [b, h, d, t] give the head-major results: RoPE, query RoPE, head RMSNorm, GQA attention', async () => {
    const [b, h, kv, t, d] = [2, 4, 2, 3, 4];
    const [q, k, v] = [h, kv, kv].map((n) => uniform(random, b * n * t * d, -1, 1));
    const w = uniform(random, d, 0.5, 1.5);
    const inputs = [
      { name: 'q', dtype: 'float64' as const, shape: ['B', h, 'T', d], value: f64([b, h, t, d], q!) },
      { name: 'k', dtype: 'float64' as const, shape: ['B', kv, 'T', d], value: f64([b, kv, t, d], k!) },
      { name: 'v', dtype: 'float64' as const, shape: ['B', kv, 'T', d], value: f64([b, kv, t, d], v!) },
      { name: 'pos', dtype: 'int64' as const, shape: ['B', 'T'], value: i64([b, t], [0, 1, 2, 4, 5, 6]) },
      { name: 'mask', dtype: 'int64' as const, shape: ['B', 'T'], value: i64([b, t], [1, 1, 1, 0, 1, 1]) },
      { name: 'w', dtype: 'float64' as const, shape: [d], value: f64([d], w) },
    ];
    const build =
      (featureMajor: boolean) =>
      ([qq, kk, vv, pos, m, ww]: Tensor[]) => {
        const tables = ropeTables(pos!, [1, 0.01], 'float64');
        const bias = causalMaskBias(m!, 'float64');
        const flat = (x: Tensor) => o.reshape(x, [0, -1]);
        if (!featureMajor) {
          const out = attention(
            applyQueryRope(rmsNorm(qq!, ww!, 1e-6), tables),
            applyRope(kk!, tables),
            vv!,
            bias,
            kv,
            true,
          );
          return o.concat([flat(out), flat(applyRope(qq!, tables))], 1);
        }
        const [qT, kT, vT] = [qq!, kk!, vv!].map(transposeLast2) as [Tensor, Tensor, Tensor];
        const outT = attentionFeatureMajor(
          applyQueryRopeFeatureMajor(rmsNorm(qT, ww!, 1e-6, -2), tables),
          applyRopeFeatureMajor(kT, tables),
          vT,
          bias,
          kv,
        );
        const out = transposeLast2(o.reshape(outT, [0, h, d, -1]));
        return o.concat([flat(out), flat(transposeLast2(applyRopeFeatureMajor(qT, tables)))], 1);
      };
    const [featureMajor, headMajor] = await Promise.all([
      evaluate(inputs, build(true)),
      evaluate(inputs, build(false)),
    ]);
    expect(featureMajor.dims).toEqual(headMajor.dims);
    expect(maxAbsDiff(featureMajor.data as Float64Array, headMajor.data as Float64Array)).toBeLessThan(1e-12);
  });

  test('attention over a cached past and new keys equals attention over both joined', async () => {
    const [b, h, kv, t, d] = [2, 4, 2, 3, 2];
    const q = uniform(random, b * h * t * d, -1, 1);
    const k = uniform(random, b * kv * t * d, -1, 1);
    const v = uniform(random, b * kv * t * d, -1, 1);
    const mask = [1, 1, 1, 0, 1, 1];
    /** Positions [from, to) of axis 2 of a [b, heads, t, d] array. */
    const positions = (x: ArrayLike<number>, heads: number, from: number, to: number) =>
      Array.from({ length: b * heads }, (_, bh) => Array.from(x).slice((bh * t + from) * d, (bh * t + to) * d)).flat();
    const out = await evaluate(
      [
        { name: 'q', dtype: 'float64', shape: ['B', h, 1, d], value: f64([b, h, 1, d], positions(q, h, 2, 3)) },
        { name: 'pk', dtype: 'float64', shape: ['B', kv, 'P', d], value: f64([b, kv, 2, d], positions(k, kv, 0, 2)) },
        { name: 'pv', dtype: 'float64', shape: ['B', kv, 'P', d], value: f64([b, kv, 2, d], positions(v, kv, 0, 2)) },
        { name: 'k', dtype: 'float64', shape: ['B', kv, 1, d], value: f64([b, kv, 1, d], positions(k, kv, 2, 3)) },
        { name: 'v', dtype: 'float64', shape: ['B', kv, 1, d], value: f64([b, kv, 1, d], positions(v, kv, 2, 3)) },
        { name: 'mask', dtype: 'int64', shape: ['B', '(P+1)'], value: i64([b, t], mask) },
      ],
      ([qq, pk, pv, kk, vv, m]) => {
        // The last query sees every real key: the padding mask alone is its bias.
        const bias = o.where(o.unsqueeze(o.cast(m!, 'bool'), [1, 2, 3]), qq!.graph.constant(0, 'float64'), -1e9);
        return attentionWithPast(qq!, { key: pk!, value: pv! }, { key: kk!, value: vv! }, bias, kv);
      },
    );
    expect(out.dims).toEqual([b, h, 1, d]);
    expect(
      maxAbsDiff(out.data as Float64Array, positions(ref.attention(q, k, v, mask, [b, h, kv, t, d]), h, 2, 3)),
    ).toBeLessThan(1e-12);
  });

  test('token log-probs with temperature', async () => {
    const logits = uniform(random, 2 * 3 * 5, -3, 3);
    const targets = [4, 0, 2, 1, 1, 3];
    const out = await evaluate(
      [
        { name: 'l', dtype: 'float64', shape: ['B', 'T', 5], value: f64([2, 3, 5], logits) },
        { name: 'y', dtype: 'int64', shape: ['B', 'T'], value: i64([2, 3], targets) },
      ],
      ([l, y]) => tokenLogProbs(l!, y!, 0.7),
    );
    const lsm = ref.logSoftmaxRows(
      logits.map((v) => v / 0.7),
      5,
    );
    expect(
      maxAbsDiff(
        out.data as Float64Array,
        targets.map((tok, i) => lsm[i * 5 + tok]!),
      ),
    ).toBeLessThan(1e-12);
  });
});

const compositeCases: GradcheckCase[] = [
  {
    op: 'softmax',
    label: 'softmax axis -1',
    inputs: [{ name: 'x', dims: [2, 4], range: [-3, 3] }],
    build: ([x]) => softmax(x!),
  },
  {
    op: 'softmax',
    label: 'softmax axis 0 symbolic',
    inputs: [{ name: 'x', dims: [3, 2], shape: ['N', 2] }],
    build: ([x]) => softmax(x!, 0),
  },
  {
    op: 'logSoftmax',
    label: 'log-softmax',
    inputs: [{ name: 'x', dims: [2, 4], range: [-3, 3] }],
    build: ([x]) => logSoftmax(x!),
  },
  { op: 'logSumExp', label: 'logsumexp', inputs: [{ name: 'x', dims: [3, 4] }], build: ([x]) => logSumExp(x!) },
  {
    op: 'rmsNorm',
    label: 'RMSNorm x and weight',
    inputs: [
      { name: 'x', dims: [2, 3, 4] },
      { name: 'w', dims: [4] },
    ],
    build: ([x, w]) => rmsNorm(x!, w!, 1e-5),
  },
  { op: 'silu', label: 'SiLU', inputs: [{ name: 'x', dims: [2, 3], range: [-3, 3] }], build: ([x]) => silu(x!) },
  {
    op: 'swiglu',
    label: 'SwiGLU',
    inputs: [
      { name: 'g', dims: [2, 3] },
      { name: 'u', dims: [2, 3] },
    ],
    build: ([g, u]) => swiglu(g!, u!),
  },
  {
    op: 'rope',
    label: 'RoPE',
    inputs: [
      { name: 'x', dims: [1, 2, 3, 4], shape: ['B', 2, 'T', 4] },
      { name: 'pos', dims: [1, 3], shape: ['B', 'T'], dtype: 'int64', values: [0, 1, 2] },
    ],
    build: ([x, p]) => applyRope(x!, ropeTables(p!, [1, 0.1], 'float64')),
  },
  {
    op: 'attention',
    label: 'GQA attention, padded batch, symbolic B and T',
    inputs: [
      { name: 'q', dims: [2, 4, 3, 2], shape: ['B', 4, 'T', 2] },
      { name: 'k', dims: [2, 2, 3, 2], shape: ['B', 2, 'T', 2] },
      { name: 'v', dims: [2, 2, 3, 2], shape: ['B', 2, 'T', 2] },
      { name: 'mask', dims: [2, 3], shape: ['B', 'T'], dtype: 'int64', values: [1, 1, 1, 1, 1, 0] },
    ],
    build: ([q, k, v, m]) => attention(q!, k!, v!, causalMaskBias(m!, 'float64'), 2),
  },
  {
    op: 'rope',
    label: 'RoPE and query RoPE, feature-major',
    inputs: [
      { name: 'x', dims: [1, 2, 4, 3], shape: ['B', 2, 4, 'T'] },
      { name: 'pos', dims: [1, 3], shape: ['B', 'T'], dtype: 'int64', values: [0, 1, 2] },
    ],
    build: ([x, p]) => {
      const tables = ropeTables(p!, [1, 0.1], 'float64');
      return o.add(applyRopeFeatureMajor(x!, tables), o.mul(applyQueryRopeFeatureMajor(x!, tables), 0.5));
    },
  },
  {
    op: 'rmsNorm',
    label: 'RMSNorm over axis -2 (feature-major heads)',
    inputs: [
      { name: 'x', dims: [2, 4, 3] },
      { name: 'w', dims: [4] },
    ],
    build: ([x, w]) => rmsNorm(x!, w!, 1e-5, -2),
  },
  {
    op: 'attention',
    label: 'GQA attention, feature-major, padded batch, symbolic B and T',
    inputs: [
      { name: 'q', dims: [2, 4, 2, 3], shape: ['B', 4, 2, 'T'] },
      { name: 'k', dims: [2, 2, 2, 3], shape: ['B', 2, 2, 'T'] },
      { name: 'v', dims: [2, 2, 2, 3], shape: ['B', 2, 2, 'T'] },
      { name: 'mask', dims: [2, 3], shape: ['B', 'T'], dtype: 'int64', values: [1, 1, 1, 1, 1, 0] },
    ],
    build: ([q, k, v, m]) => attentionFeatureMajor(q!, k!, v!, causalMaskBias(m!, 'float64'), 2),
  },
  {
    op: 'tokenLogProbs',
    label: 'token log-probs at temperature 0.7',
    inputs: [
      { name: 'logits', dims: [2, 3, 5], shape: ['B', 'T', 5], range: [-3, 3] },
      { name: 'y', dims: [2, 3], shape: ['B', 'T'], dtype: 'int64', values: [4, 0, 2, 1, 1, 3] },
    ],
    build: ([l, y]) => tokenLogProbs(l!, y!, 0.7),
  },
  ...[0, 0.3, 1].map((mix): GradcheckCase => ({
    op: 'distillationKl',
    label: `distillation KL, mix ${mix}, full vocabulary`,
    inputs: [
      { name: 'student', dims: [2, 3, 5], shape: ['B', 'T', 5], range: [-3, 3] },
      { name: 'teacher', dims: [2, 3, 5], shape: ['B', 'T', 5], range: [-4, -0.5], differentiable: false },
    ],
    build: ([s, t]) => distillationKl(s!, t!, mix),
  })),
  {
    op: 'distillationKl',
    label: "distillation KL, mix 0.5, on the teacher's top 2",
    inputs: [
      { name: 'student', dims: [3, 4], shape: ['R', 4], range: [-3, 3] },
      { name: 'teacher', dims: [3, 2], shape: ['R', 2], range: [-2, -0.2], differentiable: false },
      { name: 'ids', dims: [3, 2], shape: ['R', 2], dtype: 'int64', values: [3, 0, 1, 2, 0, 1] },
    ],
    build: ([s, t, k]) => distillationKl(s!, t!, 0.5, k!),
  },
];

describe('composites differentiate through the primitive rules', () => {
  test.each(compositeCases.map((c) => [c.label, c] as const))('%s', async (_label, c) => {
    const diffs = await gradcheck(c);
    for (const d of diffs) console.log(`${c.label} · ${d.name}: max|Δ| = ${d.maxAbsDiff.toExponential(2)}`);
    for (const d of diffs) expect(d.worstRatio, `${c.label} · ${d.name}`).toBeLessThanOrEqual(1);
  });
});
