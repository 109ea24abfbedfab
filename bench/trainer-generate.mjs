#!/usr/bin/env node
// Generation engine benchmark (KV-cache prefill/decode on onnxruntime CPU), printing one JSON document:
//  - prefill tokens/s (one prompt of each context length);
//  - decode tokens/s at batch 1, 8 and 32, at context 64 and 512 (KvModel.step, one token per row;
//    the batch sizes run in interleaved rounds and each reports its median round);
//  - the same-run baselines the targets compare against: batch-8 vs batch-1 throughput (target ≥ 4×)
//    and the decode step time at context 512 vs 64 (target: roughly flat, ratio near 1);
//  - time to first token under load: 32 concurrent requests through the GenerationEngine;
//  - the process's peak RSS.
// Run `npx tsc -b trainer` first. Usage: node bench/trainer-generate.mjs [--hidden N] [--layers N] [--steps N] [--threads N] [--quick]
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    hidden: { type: 'string', default: '256' },
    layers: { type: 'string', default: '4' },
    steps: { type: 'string', default: '48' },
    threads: { type: 'string' },
    quick: { type: 'boolean', default: false },
  },
});
const dist = (path) => import(new URL(`../trainer/dist/${path}`, import.meta.url).href);
const log = (msg) => process.stderr.write(`[bench] ${msg}\n`);
const { tinyModelConfig, tinyModelWeights } = await dist('model/tiny.js');
const { KvModel } = await dist('generate/kv-model.js');
const { KvCache } = await dist('generate/kv-cache.js');
const { kvAdapterFeeds } = await dist('generate/adapter-feeds.js');
const { GenerationEngine } = await dist('generate/engine.js');
const { samplingParams } = await dist('generate/sampling-params.js');

const hidden = Number(values.hidden);
const config = tinyModelConfig({
  hiddenSize: hidden,
  numLayers: Number(values.layers),
  numHeads: hidden / 64,
  numKvHeads: Math.max(1, hidden / 128),
  maxPositionEmbeddings: 4096,
});
const weights = tinyModelWeights(config, 0);
const runtime = values.threads ? { intraOpNumThreads: Number(values.threads) } : {};
const model = await KvModel.create(config, weights, runtime);
const feeds = kvAdapterFeeds(config);
const steps = values.quick ? 8 : Number(values.steps);
const contexts = [64, 512];
const batches = values.quick ? [1, 8] : [1, 8, 32];
const prompt = (length, salt) => Array.from({ length }, (_, i) => (i * 31 + salt * 7) % 256);
const now = () => performance.now();

const prefill = {};
for (const context of contexts) {
  await model.step([{ cache: new KvCache(config, context), tokens: prompt(context, 0) }], feeds); // warm-up
  const t = now();
  await model.step([{ cache: new KvCache(config, context), tokens: prompt(context, 1) }], feeds);
  prefill[`context_${context}`] = Math.round(context / ((now() - t) / 1000));
  log(`prefill ${context}: ${prefill[`context_${context}`]} tokens/s`);
}

const decode = {};
const stepMs = {};
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
for (const context of contexts) {
  // Every batch size decodes from the same context, in interleaved rounds, so machine noise hits them alike.
  const runs = [];
  for (const batch of batches) {
    const caches = Array.from({ length: batch }, () => new KvCache(config, context + steps + 4));
    // Prefill in chunks of 8 rows so a 32 × 512 prefill does not dominate memory.
    for (let i = 0; i < batch; i += 8)
      await model.step(
        caches.slice(i, i + 8).map((cache, k) => ({ cache, tokens: prompt(context, i + k) })),
        feeds,
      );
    runs.push({ batch, caches, times: [] });
  }
  const stepAll = (caches, s) =>
    model.step(
      caches.map((cache) => ({ cache, tokens: [s % 256] })),
      feeds,
    );
  // Warm-up: onnxruntime plans memory for new shapes on their first runs.
  for (const run of runs) for (let w = 0; w < 3; w++) await stepAll(run.caches, w);
  const perRound = 4;
  for (let round = 0; round < Math.ceil(steps / perRound); round++) {
    for (const run of runs) {
      const t = now();
      for (let s = 0; s < perRound; s++) await stepAll(run.caches, s);
      run.times.push((now() - t) / perRound);
    }
  }
  for (const { batch, times } of runs) {
    const ms = median(times);
    stepMs[`batch_${batch}_context_${context}`] = Number(ms.toFixed(2));
    decode[`batch_${batch}_context_${context}`] = Math.round((batch * 1000) / ms);
    log(
      `decode batch ${batch} context ${context}: ${ms.toFixed(2)} ms/step (median of ${times.length} rounds), ${decode[`batch_${batch}_context_${context}`]} tokens/s`,
    );
  }
}

const engine = new GenerationEngine(model, { eosTokenIds: [], decode: () => '', maxBatch: 32 });
const load = values.quick ? 8 : 32;
const started = now();
const results = await Promise.all(
  Array.from({ length: load }, (_, i) => {
    const submitted = now();
    let first;
    return engine
      .generate({
        prompt: prompt(64, i),
        params: samplingParams({ temperature: 0, maxTokens: 16, ignoreEos: true }),
        adapterFeeds: feeds,
        onToken: () => (first ??= now() - submitted),
      })
      .then((r) => ({ ttft: first, tokens: r.tokenIds.length }));
  }),
);
const wall = (now() - started) / 1000;
const ttfts = results.map((r) => r.ttft).sort((a, b) => a - b);
const pct = (p) => Number(ttfts[Math.min(ttfts.length - 1, Math.floor(p * ttfts.length))].toFixed(1));
await model.release();

const ratio = (a, b) => (a && b ? Number((a / b).toFixed(2)) : null);
console.log(
  JSON.stringify(
    {
      bench: 'trainer-generate',
      model: {
        hidden_size: config.hiddenSize,
        layers: config.numLayers,
        heads: config.numHeads,
        kv_heads: config.numKvHeads,
        vocab: config.vocabSize,
      },
      threads: values.threads ? Number(values.threads) : 'default',
      prefill_tokens_per_s: prefill,
      decode_tokens_per_s: decode,
      decode_step_ms: stepMs,
      targets: {
        batch8_vs_batch1_context_64: ratio(decode.batch_8_context_64, decode.batch_1_context_64),
        batch8_vs_batch1_context_512: ratio(decode.batch_8_context_512, decode.batch_1_context_512),
        step_ms_context_512_vs_64_batch_1: ratio(stepMs.batch_1_context_512, stepMs.batch_1_context_64),
        step_ms_context_512_vs_64_batch_8: ratio(stepMs.batch_8_context_512, stepMs.batch_8_context_64),
      },
      ttft_under_load_ms: {
        concurrent_requests: load,
        prompt_tokens: 64,
        max_tokens: 16,
        p50: pct(0.5),
        p95: pct(0.95),
        max: pct(1),
      },
      engine_tokens_per_s_under_load: Math.round(results.reduce((n, r) => n + r.tokens, 0) / wall),
      peak_rss_mb: Math.round(process.resourceUsage().maxRSS / 1024),
    },
    null,
    2,
  ),
);
