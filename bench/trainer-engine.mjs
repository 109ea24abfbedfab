#!/usr/bin/env node
// Trainer engine benchmark, for models from the built-in tiny one to ~100M parameters:
//  - forward: tokens/s of a full-sequence forward (logits) and the process's peak RSS;
//  - train step: one LoRA step (forward, loss, backward, AdamW) — its achieved GFLOP/s counts every
//    MatMul of the training graph from its shapes — against the baseline: onnxruntime running
//    those same MatMul shapes alone, in the same run; and the process's peak RSS.
// Forward and training each run in a child process so each peak RSS is their own. Repetitions
// interleave step and baseline (the machine may be shared); the ratio uses the best of each, and
// train_vs_matmul_paired is the median over repetitions of baseline/step timed back to back, which
// a busy neighbour skews least (both halves of a pair see the same load).
// Prints one JSON document. Run `npm run build` (or `npx tsc -b trainer`) first.
// Usage: node bench/trainer-engine.mjs [--models tiny,small,100m] [--quick] [--reps N] [--threads N]
import { execFileSync } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { seededRandom as seeded } from '../proto/dist/random/index.js';

const { values } = parseArgs({
  options: {
    models: { type: 'string', default: 'tiny,small,100m' },
    quick: { type: 'boolean', default: false },
    reps: { type: 'string' },
    threads: { type: 'string' },
    part: { type: 'string' },
    model: { type: 'string' },
  },
});
const log = (msg) => process.stderr.write(`[bench] ${msg}\n`);
const dist = (path) => import(new URL(`../trainer/dist/${path}`, import.meta.url).href);
// (helpers below are function declarations: the top-level await runs before later consts exist)

/** A Llama-style decoder (tied head, GQA) per size; LoRA rank 8 on all seven linear layers. */
const MODELS = {
  tiny: {
    hiddenSize: 64,
    numLayers: 2,
    numHeads: 4,
    numKvHeads: 2,
    intermediateSize: 128,
    vocabSize: 259,
    batch: 8,
    seq: 64,
  },
  small: {
    hiddenSize: 256,
    numLayers: 6,
    numHeads: 8,
    numKvHeads: 4,
    intermediateSize: 768,
    vocabSize: 8192,
    batch: 4,
    seq: 128,
  },
  '100m': {
    hiddenSize: 768,
    numLayers: 12,
    numHeads: 12,
    numKvHeads: 4,
    intermediateSize: 2048,
    vocabSize: 32000,
    batch: 2,
    seq: 128,
  },
};

if (values.part) {
  const run = values.part === 'forward' ? benchForward : benchTrain;
  process.stdout.write(JSON.stringify(await run(await setup(values.model), values.quick)));
} else {
  const child = (part, model) =>
    JSON.parse(
      execFileSync(
        process.execPath,
        [
          fileURLToPath(import.meta.url),
          '--part',
          part,
          '--model',
          model,
          ...(values.quick ? ['--quick'] : []),
          ...(values.reps ? ['--reps', values.reps] : []),
          ...(values.threads ? ['--threads', values.threads] : []),
        ],
        { stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 1 << 24 },
      ).toString(),
    );
  const loadBefore = loadavg().map((l) => +l.toFixed(2));
  const models = [];
  for (const name of values.models.split(',')) {
    log(`${name}: forward…`);
    const forward = child('forward', name);
    log(`${name}: train step + MatMul baseline…`);
    const train = child('train', name);
    models.push({
      model: name,
      parameters: forward.parameters,
      config: forward.config,
      forward: forward.result,
      ...train.result,
    });
  }
  const report = {
    benchmark: 'trainer-engine',
    machine: {
      cpus: cpus().length,
      node: process.version,
      threads: values.threads ? Number(values.threads) : 'onnxruntime default',
      load_average_before: loadBefore,
      load_average_after: loadavg().map((l) => +l.toFixed(2)),
    },
    target: 'train-step GFLOP/s ≥ 40 % of onnxruntime MatMul GFLOP/s on the same shapes (train_vs_matmul ≥ 0.4)',
    models,
  };
  process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
}

async function setup(name) {
  const spec = MODELS[name];
  if (!spec) throw new Error(`unknown model '${name}' (known: ${Object.keys(MODELS).join(', ')})`);
  const { tinyModelConfig, tinyModelWeights } = await dist('model/tiny.js');
  const { batch, seq, vocabSize, ...shape } = spec;
  const config = { ...tinyModelConfig({ architecture: 'llama', tieWordEmbeddings: true, ...shape }), vocabSize };
  const weights = tinyModelWeights(config, 0);
  const random = seeded(1);
  const sequences = Array.from({ length: batch }, () =>
    Array.from({ length: seq }, () => Math.floor(random() * vocabSize)),
  );
  return {
    name,
    config,
    weights,
    batch,
    seq,
    sequences,
    parameters: [...weights.values()].reduce((n, t) => n + t.data.length, 0),
    summary: { ...shape, vocabSize },
    runtime: values.threads ? { intraOpNumThreads: Number(values.threads) } : {},
    // Best-of-N needs more repetitions where a step is short and this machine's noise is relatively large.
    reps: values.reps ? Number(values.reps) : values.quick ? 3 : ({ tiny: 60, small: 30 }[name] ?? 5),
  };
}

async function benchForward(s) {
  const { ModelRunner } = await dist('graph/graph-runner.js');
  const runner = await ModelRunner.create(s.config, s.weights, { runtime: s.runtime });
  await runner.logits(s.sequences);
  const times = [];
  for (let i = 0; i < s.reps; i++) times.push(await timed(() => runner.logits(s.sequences)));
  await runner.release();
  const { best, median } = stats(times);
  return {
    parameters: s.parameters,
    config: s.summary,
    result: {
      batch: s.batch,
      seq: s.seq,
      tokens_per_s: Math.round((s.batch * s.seq) / best),
      ms_best: ms(best),
      ms_median: ms(median),
      peak_rss_mb: peakRssMb(),
    },
  };
}

async function benchTrain(s) {
  const { makeLoraConfig } = await dist('lora/config.js');
  const { LoraTrainer } = await dist('train/trainer.js');
  const { buildTrainGraph } = await dist('train/train-graph.js');
  const { sftLoss } = await dist('train/loss.js');
  const { liveNodes } = await dist('engine/serialize.js');
  const lora = makeLoraConfig({ rank: 8, alpha: 16 });
  // The second half of each sequence is the completion (trained, scored by the LM head).
  const rows = s.sequences.map((tokens) => ({ tokens, mask: tokens.map((_, i) => (i >= s.seq / 2 ? 1 : 0)) }));
  const scored = rows.reduce((n, r) => n + r.mask.slice(1).reduce((a, b) => a + b, 0), 0);
  // Every MatMul the training graph runs, symbols bound to this batch (inputs are tokens[0..seq−2]).
  const graph = buildTrainGraph(s.config, s.weights, { lora, loss: sftLoss });
  const bind = { batch: s.batch, seq: s.seq - 1, scored };
  // MatMuls by a built-in constant (RoPE's rotate-half permutation) move data rather than compute
  // the model: they are neither counted nor put in the baseline.
  const isConstant = (name) => graph.graph.initializers.has(name) && !s.weights.has(name);
  const fromConstant = (t) => isConstant(t.producer?.op === 'Transpose' ? t.producer.inputs[0].name : t.name);
  const matmuls = liveNodes(graph.graph)
    .filter((n) => n.op === 'MatMul' && !n.inputs.some(fromConstant))
    .map((n) => n.inputs.map((t) => t.shape.map((d) => evalDim(d, bind))));
  const flops = matmuls.reduce((sum, [a, b]) => sum + matmulFlops(a, b), 0);
  const trainer = await LoraTrainer.create({
    config: s.config,
    weights: s.weights,
    lora,
    schedule: { lr: 1e-4 },
    runtime: s.runtime,
  });
  const baseline = await matmulBaseline(matmuls, s.runtime);
  await trainer.trainStep(rows);
  await baseline.run();
  const step = [];
  const matmul = [];
  for (let i = 0; i < s.reps; i++) {
    step.push(await timed(() => trainer.trainStep(rows)));
    matmul.push(await timed(() => baseline.run()));
  }
  await Promise.all([trainer.release(), baseline.release()]);
  const [st, mm] = [stats(step), stats(matmul)];
  const gflops = (seconds) => +(flops / seconds / 1e9).toFixed(2);
  return {
    result: {
      train_step: {
        batch: s.batch,
        seq: s.seq,
        trained_tokens: scored,
        lora: { rank: lora.rank, targets: lora.targets.length },
        matmuls: matmuls.length,
        gflop: +(flops / 1e9).toFixed(3),
        ms_best: ms(st.best),
        ms_median: ms(st.median),
        achieved_gflops: gflops(st.best),
        tokens_per_s: Math.round((s.batch * s.seq) / st.best),
        peak_rss_mb: peakRssMb(),
      },
      baseline: {
        what: 'onnxruntime MatMul alone on the same shapes, same run',
        ms_best: ms(mm.best),
        ms_median: ms(mm.median),
        gflops: gflops(mm.best),
      },
      train_vs_matmul: +(mm.best / st.best).toFixed(3),
      train_vs_matmul_median: +(mm.median / st.median).toFixed(3),
      train_vs_matmul_paired: +stats(matmul.map((m, i) => m / step[i])).median.toFixed(3),
    },
  };
}

/**
 * One graph holding every MatMul of the step (same shapes, same count), each reduced to a scalar
 * so nothing large is copied out. Optimisation is off so onnxruntime cannot merge the repeats.
 */
async function matmulBaseline(matmuls, runtime) {
  const { Graph, Runtime, ops } = await dist('engine/index.js');
  const g = new Graph('matmul-baseline');
  const inputs = new Map();
  const feeds = {};
  const random = seeded(2);
  const fill = (dims) => ({
    dtype: 'float32',
    dims,
    data: Float32Array.from({ length: dims.reduce((p, d) => p * d, 1) }, () => random() - 0.5),
  });
  const input = (dims) => {
    const key = dims.join('x');
    if (!inputs.has(key)) {
      inputs.set(key, g.input(`in_${key}`, 'float32', dims));
      feeds[`in_${key}`] = fill(dims);
    }
    return inputs.get(key);
  };
  let total;
  for (const [a, b] of matmuls) {
    const sum = ops.reduceSum(ops.matmul(input(a), input(b)), [], false);
    total = total ? ops.add(total, sum) : sum;
  }
  g.output(total, 'out');
  const rt = await Runtime.create(g, { ...runtime, optimization: 'disabled' });
  return { run: () => rt.run(feeds), release: () => rt.release() };
}

function matmulFlops(a, b) {
  const batch = broadcast(a.slice(0, -2), b.slice(0, -2)).reduce((p, d) => p * d, 1);
  return 2 * batch * a.at(-2) * a.at(-1) * b.at(-1);
}

function broadcast(x, y) {
  const n = Math.max(x.length, y.length);
  return Array.from({ length: n }, (_, i) => Math.max(x[x.length - n + i] ?? 1, y[y.length - n + i] ?? 1));
}

function evalDim(d, bind) {
  if (typeof d === 'number') return d;
  return d.split('*').reduce((p, part) => {
    const v = /^\d+$/.test(part) ? Number(part) : bind[part];
    if (v === undefined) throw new Error(`cannot evaluate dim '${d}'`);
    return p * v;
  }, 1);
}

async function timed(fn) {
  const t = performance.now();
  await fn();
  return (performance.now() - t) / 1e3;
}

function stats(times) {
  const sorted = [...times].sort((x, y) => x - y);
  return { best: sorted[0], median: sorted[Math.floor(sorted.length / 2)] };
}

function ms(seconds) {
  return +(seconds * 1e3).toFixed(1);
}

function peakRssMb() {
  return Math.round(process.resourceUsage().maxRSS / 1024);
}
