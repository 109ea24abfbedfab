#!/usr/bin/env node
// Trainer engine benchmark. For models from the built-in tiny one to ~100M parameters: forward
// tokens/s, LoRA train-step time, the step's achieved GFLOP/s (every MatMul in the training graph,
// counted from its shapes) against onnxruntime running those same MatMul shapes alone in the same
// run (the baseline), and peak memory. Each model runs in its own child process so peak RSS is
// its own. Repetitions interleave step and baseline (the machine may be shared); the ratio uses the
// best of each. Prints one JSON document. Run `npm run build` (or `npx tsc -b trainer`) first.
// Usage: node bench/trainer-engine.mjs [--models tiny,small,100m] [--quick]
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: { models: { type: 'string', default: 'tiny,small,100m' }, quick: { type: 'boolean', default: false }, one: { type: 'string' } },
});
const log = (msg) => process.stderr.write(`[bench] ${msg}\n`);

/** Model shapes: the built-in tiny config, a ~12M and a ~100M Llama-style decoder (tied head). */
const MODELS = {
  tiny: { hiddenSize: 64, numLayers: 2, numHeads: 4, numKvHeads: 2, intermediateSize: 128, vocabSize: 259, batch: 8, seq: 64 },
  small: { hiddenSize: 256, numLayers: 6, numHeads: 8, numKvHeads: 4, intermediateSize: 768, vocabSize: 8192, batch: 4, seq: 128 },
  '100m': { hiddenSize: 768, numLayers: 12, numHeads: 12, numKvHeads: 4, intermediateSize: 2048, vocabSize: 32000, batch: 2, seq: 128 },
};

if (values.one) {
  process.stdout.write(JSON.stringify(await benchModel(values.one, values.quick)));
} else {
  const results = [];
  for (const name of values.models.split(',')) {
    log(`${name}…`);
    const out = execFileSync(process.execPath, [fileURLToPath(import.meta.url), '--one', name, ...(values.quick ? ['--quick'] : [])], { stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 1 << 24 });
    results.push(JSON.parse(out.toString()));
  }
  const report = {
    benchmark: 'trainer-engine',
    machine: { cpus: (await import('node:os')).cpus().length, node: process.version },
    target: 'train-step GFLOP/s ≥ 40 % of onnxruntime MatMul GFLOP/s on the same shapes',
    models: results,
  };
  process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
}

async function benchModel(name, quick) {
  const { tinyModelConfig, tinyModelWeights } = await import('../trainer/dist/model/tiny.js');
  const { makeLoraConfig } = await import('../trainer/dist/lora/config.js');
  const { ModelRunner } = await import('../trainer/dist/model/graph-runner.js');
  const { LoraTrainer } = await import('../trainer/dist/train/trainer.js');
  const { buildTrainGraph } = await import('../trainer/dist/train/train-graph.js');
  const { sftLoss } = await import('../trainer/dist/train/loss.js');
  const { liveNodes } = await import('../trainer/dist/engine/serialize.js');
  const spec = MODELS[name];
  if (!spec) throw new Error(`unknown model '${name}' (known: ${Object.keys(MODELS).join(', ')})`);
  const { batch, seq, vocabSize, ...shape } = spec;
  const config = { ...tinyModelConfig({ architecture: 'llama', tieWordEmbeddings: true, ...shape }), vocabSize };
  const weights = tinyModelWeights(config, 0);
  const parameters = [...weights.values()].reduce((n, t) => n + t.data.length, 0);
  const lora = makeLoraConfig({ rank: 8, alpha: 16 });
  const reps = quick ? 3 : name === '100m' ? 5 : 15;
  const random = seeded(1);
  const sequences = Array.from({ length: batch }, () => Array.from({ length: seq }, () => Math.floor(random() * vocabSize)));

  // The completion (trained, LM-head-scored) half of each sequence; the first half is prompt.
  const rows = sequences.map((tokens) => ({ tokens, mask: tokens.map((_, i) => (i >= seq / 2 ? 1 : 0)) }));
  // Every MatMul the training graph runs, with symbols bound to this batch (inputs are tokens[0..seq−2]).
  const graph = buildTrainGraph(config, weights, { lora, loss: sftLoss });
  const scored = rows.reduce((n, r) => n + r.mask.slice(1).reduce((a, b) => a + b, 0), 0);
  const bind = { batch, seq: seq - 1, scored };
  const matmuls = liveNodes(graph.graph).filter((n) => n.op === 'MatMul').map((n) => n.inputs.map((t) => t.shape.map((d) => evalDim(d, bind))));
  const flops = matmuls.reduce((sum, [a, b]) => sum + matmulFlops(a, b), 0);

  const runner = await ModelRunner.create(config, weights, {});
  const trainer = await LoraTrainer.create({ config, weights, lora, schedule: { lr: 1e-4 } });
  const baseline = await matmulBaseline(matmuls);
  await runner.logits(sequences);
  await trainer.trainStep(rows);
  await baseline.run();
  // Interleaved repetitions: the machine is shared, so each figure and its baseline see the same load.
  const times = { forward: [], step: [], matmul: [] };
  for (let i = 0; i < reps; i++) {
    times.forward.push(await timed(() => runner.logits(sequences)));
    times.step.push(await timed(() => trainer.trainStep(rows)));
    times.matmul.push(await timed(() => baseline.run()));
  }
  await Promise.all([runner.release(), trainer.release(), baseline.release()]);
  const best = Object.fromEntries(Object.entries(times).map(([k, v]) => [k, Math.min(...v)]));
  const mid = Object.fromEntries(Object.entries(times).map(([k, v]) => [k, v.sort((x, y) => x - y)[Math.floor(v.length / 2)]]));
  const gflops = (seconds) => +(flops / seconds / 1e9).toFixed(2);
  const ms = (seconds) => +(seconds * 1e3).toFixed(1);
  return {
    model: name,
    parameters,
    config: { ...shape, vocabSize, lora: { rank: lora.rank, targets: lora.targets.length } },
    repetitions: reps,
    forward: { batch, seq, tokens_per_s: Math.round((batch * seq) / best.forward), ms_best: ms(best.forward), ms_median: ms(mid.forward) },
    train_step: {
      batch, seq, matmuls: matmuls.length, gflop: +(flops / 1e9).toFixed(3),
      ms_best: ms(best.step), ms_median: ms(mid.step), achieved_gflops: gflops(best.step), tokens_per_s: Math.round((batch * seq) / best.step),
    },
    baseline: { what: 'onnxruntime MatMul alone on the same shapes, same run', ms_best: ms(best.matmul), ms_median: ms(mid.matmul), gflops: gflops(best.matmul) },
    train_vs_matmul: +(best.matmul / best.step).toFixed(3),
    train_vs_matmul_median: +(mid.matmul / mid.step).toFixed(3),
    peak_rss_mb: Math.round(process.resourceUsage().maxRSS / 1024),
  };
}

/** One session per distinct MatMul shape (MatMul → ReduceSum, so output copies stay tiny); `run` runs each as often as the step does. */
async function matmulBaseline(matmuls) {
  const { Graph } = await import('../trainer/dist/engine/graph.js');
  const { ops } = await import('../trainer/dist/engine/index.js');
  const { Runtime } = await import('../trainer/dist/engine/runtime.js');
  const counts = new Map();
  for (const [a, b] of matmuls) {
    const key = JSON.stringify([a, b]);
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const random = seeded(2);
  const fill = (dims) => ({ dtype: 'float32', dims, data: Float32Array.from({ length: dims.reduce((p, d) => p * d, 1) }, () => random() - 0.5) });
  const sessions = [];
  for (const [key, count] of counts) {
    const [a, b] = JSON.parse(key);
    const g = new Graph('matmul');
    g.output(ops.reduceSum(ops.matmul(g.input('a', 'float32', a), g.input('b', 'float32', b)), [], false), 'out');
    sessions.push({ rt: await Runtime.create(g), feeds: { a: fill(a), b: fill(b) }, count });
  }
  return {
    async run() {
      for (const { rt, feeds, count } of sessions) for (let i = 0; i < count; i++) await rt.run(feeds);
    },
    release: () => Promise.all(sessions.map((s) => s.rt.release())),
  };
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

function seeded(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
