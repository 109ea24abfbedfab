#!/usr/bin/env node
// The trainer on onnxruntime's CUDA provider against its CPU provider, in one run on one machine
// (the CPU is the same-run baseline). Prints one JSON document:
//  - engine, on the ~100M shape of bench/trainer-engine.mjs (hidden 768, 12 layers, vocab 32000):
//    a full-sequence forward on each provider (ms, tokens/s) and the largest |Δ log p| of the next
//    tokens between them; a LoRA SFT step, a full-parameter SFT step and a LoRA GRPO step (one group
//    of 8) on each: ms per step, and the first step's loss on each (they start from the same weights);
//  - serve: `gauntlet-trainer serve --device cpu` and `--device cuda` on an init-tiny folder of the
//    same layers (byte vocabulary: ~76M parameters): one greedy completion with logprobs from each
//    (same tokens? largest |Δ logprob|) and decode tokens/s.
// Needs onnxruntime-node's CUDA provider libraries next to its binding (docs/trainer.md, "GPU").
// Run `npm run build` first.
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { seededRandom as seeded } from '../proto/dist/random/index.js';
import { benchOptions } from './support/bench-options.mjs';
import { runBin } from './support/run-bin.mjs';
import { startBin } from './support/processes.mjs';

const SHAPES = {
  // bench/trainer-engine.mjs's '100m'.
  '100m': { hiddenSize: 768, numLayers: 12, numHeads: 12, numKvHeads: 4, intermediateSize: 2048, vocabSize: 32000 },
  // For trying the bench itself on a small machine.
  small: { hiddenSize: 256, numLayers: 6, numHeads: 8, numKvHeads: 4, intermediateSize: 768, vocabSize: 8192 },
};

const { values, number, choice } = benchOptions(
  {
    shape: { type: 'string', default: '100m', help: `Model shape: ${Object.keys(SHAPES).join(', ')}` },
    parts: { type: 'string', default: 'engine,serve', help: 'Parts to run: engine, serve' },
    device: {
      type: 'string',
      default: 'cuda',
      help: 'The provider measured against cpu (cpu compares cpu with itself)',
    },
    reps: { type: 'string', default: '5', help: 'Timed repetitions of each step (after one warm-up)' },
    tokens: { type: 'string', default: '64', help: 'Completion tokens per serve request' },
    concurrent: { type: 'string', default: '32', help: 'Serve requests sent at once for the batched decode figure' },
    help: { type: 'boolean', help: 'Show this help' },
  },
  'Usage: node bench/trainer-cuda.mjs [options]\nThe trainer on CUDA against the CPU, same run: forward parity, SFT/GRPO step times, serve parity.',
);
const shape = SHAPES[choice('shape', Object.keys(SHAPES))];
choice('device', ['cpu', 'cuda']);
const parts = values.parts.split(',');
const reps = number('reps', 1, 100);
const completionTokens = number('tokens', 1, 4096);
const concurrent = number('concurrent', 1, 256);
const devices = ['cpu', values.device];
const log = (msg) => process.stderr.write(`[bench] ${msg}\n`);
const dist = (path) => import(new URL(`../trainer/dist/${path}`, import.meta.url).href);

const report = {
  benchmark: 'trainer-cuda',
  machine: {
    cpus: cpus().length,
    node: process.version,
    // cuBLAS reads it: 0 turns TF32 matrix products off (onnxruntime-node cannot set use_tf32 itself).
    NVIDIA_TF32_OVERRIDE: process.env.NVIDIA_TF32_OVERRIDE ?? null,
    load_before: loadavg().map((l) => +l.toFixed(2)),
  },
  shape: { name: values.shape, ...shape },
  devices,
};
// A part that fails is reported with its error; the parts and providers measured before it stay.
for (const [name, run] of [
  ['engine', engine],
  ['serve', serve],
]) {
  if (!parts.includes(name)) continue;
  try {
    report[name] = await run();
  } catch (error) {
    log(`${name} failed: ${error.stack ?? error}`);
    report[name] = { ...report[name], error: String(error.message ?? error).slice(0, 2000) };
  }
}
report.machine.load_after = loadavg().map((l) => +l.toFixed(2));
process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);

async function engine() {
  const { tinyModelConfig, tinyModelWeights } = await dist('model/tiny.js');
  const { ModelRunner } = await dist('graph/graph-runner.js');
  const { LoraTrainer } = await dist('train/trainer.js');
  const { makeLoraConfig } = await dist('lora/config.js');
  const { FULL } = await dist('train/trainable.js');
  const { GrpoLearner, grpoStep } = await dist('train/grpo/index.js');
  const { logSoftmax } = await dist('generate/sampler.js');
  const { vocabSize, ...layers } = shape;
  const config = { ...tinyModelConfig({ architecture: 'llama', tieWordEmbeddings: true, ...layers }), vocabSize };
  const weights = tinyModelWeights(config, 0);
  const random = seeded(1);
  const tokens = (n) => Array.from({ length: n }, () => Math.floor(random() * vocabSize));
  const sequences = [tokens(128), tokens(128)];
  const rows = sequences.map((t) => ({ tokens: t, mask: t.map((_, i) => (i >= 64 ? 1 : 0)) }));
  const prompt = tokens(64);
  const samples = Array.from({ length: 8 }, (_, i) => ({
    promptIds: prompt,
    completionIds: tokens(64),
    group: 'g',
    reward: i % 3 === 0 ? 1 : 0,
  }));
  const lora = makeLoraConfig({ rank: 16, alpha: 32 });
  const out = { parameters: [...weights.values()].reduce((n, t) => n + t.data.length, 0), forward: {}, steps: {} };
  report.engine = out;
  const logprobs = {};
  for (const device of devices) {
    const runtime = { executionProvider: device };
    log(`${device}: forward`);
    const runner = await ModelRunner.create(config, weights, { runtime });
    const first = await runner.logits(sequences);
    logprobs[device] = nextTokenLogprobs(first, sequences, logSoftmax);
    out.forward[device] = perPass(await repeat(() => runner.logits(sequences)), 2 * 128);
    await runner.release();
    const steps = {
      sft_lora: () => LoraTrainer.create({ config, weights, lora, schedule: { lr: 1e-4 }, runtime }),
      sft_full: () => LoraTrainer.create({ config, weights, lora, train: FULL, schedule: { lr: 1e-5 }, runtime }),
    };
    for (const [name, create] of Object.entries(steps)) {
      log(`${device}: ${name} step`);
      const trainer = await create();
      const loss = (await trainer.trainStep(rows)).loss;
      out.steps[name] ??= {};
      out.steps[name][device] = { first_loss: loss, ...perPass(await repeat(() => trainer.trainStep(rows)), 2 * 128) };
      await trainer.release();
    }
    log(`${device}: grpo_lora step`);
    const learner = await GrpoLearner.create({
      config,
      weights,
      lora,
      schedule: { lr: 1e-4 },
      runtime,
      grpo: { samplerCorrection: null },
    });
    const loss = (await grpoStep(learner, samples)).metrics.loss;
    out.steps.grpo_lora ??= {};
    out.steps.grpo_lora[device] = {
      first_loss: loss,
      ...perPass(await repeat(() => grpoStep(learner, samples)), 8 * 128),
    };
    await learner.release();
  }
  const [a, b] = devices.map((d) => logprobs[d]);
  out.forward.max_abs_logprob_diff = maxAbsDiff(a, b);
  out.forward.positions = a.length;
  out.speedup = Object.fromEntries(
    [['forward', out.forward], ...Object.entries(out.steps)].map(([name, r]) => [
      name,
      +(r.cpu.ms_median / r[values.device].ms_median).toFixed(2),
    ]),
  );
  return out;
}

async function serve() {
  const dir = mkdtempSync(join(tmpdir(), 'trainer-cuda-'));
  try {
    const model = join(dir, 'model');
    log(`init-tiny ${model}`);
    await runBin('trainer', [
      'init-tiny',
      model,
      '--arch',
      'llama',
      '--hidden-size',
      String(shape.hiddenSize),
      '--layers',
      String(shape.numLayers),
      '--heads',
      String(shape.numHeads),
      '--kv-heads',
      String(shape.numKvHeads),
      '--intermediate-size',
      String(shape.intermediateSize),
      '--tie-embeddings',
      'true',
    ]);
    const results = {};
    report.serve = { per_device: results };
    for (const device of devices) {
      log(`serve --device ${device}`);
      const server = await startBin(
        'trainer',
        ['serve', '--model', model, '--port', '0', '--device', device],
        /serving \S+ at (http:\/\/\S+)/,
        { timeoutMs: 600_000 },
      );
      try {
        const url = server.match[1];
        await complete(url, 4); // warm-up: sessions and the first kernels
        const started = performance.now();
        const body = await complete(url, completionTokens);
        const ms = performance.now() - started;
        const choice = body.choices[0];
        // Continuous batching: `concurrent` requests at once, decode tokens/s over all of them.
        const batchStarted = performance.now();
        const batch = await Promise.all(Array.from({ length: concurrent }, () => complete(url, completionTokens)));
        const batchMs = performance.now() - batchStarted;
        const batchTokens = batch.reduce((n, b) => n + b.usage.completion_tokens, 0);
        results[device] = {
          text: choice.text,
          tokens: choice.logprobs.tokens,
          logprobs: choice.logprobs.token_logprobs,
          completion_tokens: body.usage.completion_tokens,
          ms: +ms.toFixed(1),
          tokens_per_s: +((body.usage.completion_tokens / ms) * 1e3).toFixed(1),
          concurrent_tokens_per_s: +((batchTokens / batchMs) * 1e3).toFixed(1),
        };
      } finally {
        await server.stop();
      }
    }
    const [a, b] = devices.map((d) => results[d]);
    return {
      model: 'init-tiny, byte vocabulary',
      completion_tokens: completionTokens,
      same_tokens: JSON.stringify(a.tokens) === JSON.stringify(b.tokens),
      max_abs_logprob_diff: maxAbsDiff(a.logprobs, b.logprobs),
      tokens_per_s: Object.fromEntries(devices.map((d) => [d, results[d].tokens_per_s])),
      speedup: +(b.tokens_per_s / a.tokens_per_s).toFixed(2),
      concurrent_requests: concurrent,
      concurrent_tokens_per_s: Object.fromEntries(devices.map((d) => [d, results[d].concurrent_tokens_per_s])),
      concurrent_speedup: +(b.concurrent_tokens_per_s / a.concurrent_tokens_per_s).toFixed(2),
      text: Object.fromEntries(devices.map((d) => [d, results[d].text])),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function complete(url, maxTokens) {
  const response = await fetch(`${url}/v1/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      prompt: 'click the button labelled OK',
      max_tokens: maxTokens,
      temperature: 0,
      logprobs: 1,
      ignore_eos: true,
    }),
  });
  const body = await response.json();
  if (!response.ok) throw new Error(`completion failed (${response.status}): ${JSON.stringify(body)}`);
  return body;
}

/** log p(token t+1 | ≤ t) for every position of every sequence, from [batch, seq, vocab] logits. */
function nextTokenLogprobs(logits, sequences, logSoftmax) {
  const [, seq, vocab] = logits.dims;
  return sequences.flatMap((tokens, b) =>
    tokens.slice(1).map((next, t) => {
      const row = logits.data.subarray((b * seq + t) * vocab, (b * seq + t + 1) * vocab);
      return logSoftmax(row)[next];
    }),
  );
}

function maxAbsDiff(a, b) {
  if (a.length !== b.length) return null;
  return a.reduce((m, x, i) => Math.max(m, Math.abs(x - b[i])), 0);
}

async function repeat(fn) {
  await fn(); // warm-up
  const times = [];
  for (let i = 0; i < reps; i++) {
    const t = performance.now();
    await fn();
    times.push(performance.now() - t);
  }
  return times;
}

function perPass(times, tokens) {
  const sorted = [...times].sort((x, y) => x - y);
  const median = sorted[Math.floor(sorted.length / 2)];
  return {
    ms_best: +sorted[0].toFixed(1),
    ms_median: +median.toFixed(1),
    tokens_per_s: Math.round((tokens / median) * 1e3),
  };
}
