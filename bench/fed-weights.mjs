#!/usr/bin/env node
// What weights-as-feeds costs generation (grpo --train full serves each version by feeding its
// trained weights to the cached graph): decode ms/step and prefill tokens/s of the same model with
// every weight baked in (LoRA runs) and with every trainable weight fed (full runs), in
// interleaved rounds on one machine, printing one JSON document.
// Run `npx tsc -b trainer` first. Usage: node bench/fed-weights.mjs [--hidden N] [--layers N] [--rounds N] [--threads N]
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    hidden: { type: 'string', default: '256' },
    layers: { type: 'string', default: '4' },
    rounds: { type: 'string', default: '12' },
    threads: { type: 'string' },
  },
});
const dist = (path) => import(new URL(`../trainer/dist/${path}`, import.meta.url).href);
const log = (msg) => process.stderr.write(`[bench] ${msg}\n`);
const { tinyModelConfig, tinyModelWeights } = await dist('model/tiny.js');
const { KvModel } = await dist('generate/kv-model.js');
const { KvCache } = await dist('generate/kv-cache.js');
const { kvAdapterFeeds, kvWeightFeeds } = await dist('generate/adapter-feeds.js');
const { trainedWeightNames, FULL } = await dist('train/trainable.js');

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
const fed = trainedWeightNames(config, FULL);
const variants = [
  { name: 'baked', model: await KvModel.create(config, weights, runtime), feeds: kvAdapterFeeds(config) },
  {
    name: 'fed',
    model: await KvModel.create(config, weights, runtime, { fedWeights: fed }),
    feeds: { ...kvAdapterFeeds(config), ...kvWeightFeeds(weights, fed, new Map(), true) },
  },
];
const [context, batch, rounds, perRound] = [128, 8, Number(values.rounds), 4];
const prompt = (salt) => Array.from({ length: context }, (_, i) => (i * 31 + salt * 7) % 256);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
for (const v of variants) {
  v.caches = Array.from({ length: batch }, () => new KvCache(config, context + rounds * perRound + 8));
  await v.model.step(
    v.caches.map((cache, k) => ({ cache, tokens: prompt(k) })),
    v.feeds,
  );
  for (let w = 0; w < 3; w++)
    await v.model.step(
      v.caches.map((cache) => ({ cache, tokens: [w] })),
      v.feeds,
    );
  Object.assign(v, { decode: [], prefill: [] });
}
// Interleaved: machine noise hits both alike.
for (let round = 0; round < rounds; round++)
  for (const v of variants) {
    let t = performance.now();
    for (let s = 0; s < perRound; s++)
      await v.model.step(
        v.caches.map((cache) => ({ cache, tokens: [s] })),
        v.feeds,
      );
    v.decode.push((performance.now() - t) / perRound);
    t = performance.now();
    await v.model.step([{ cache: new KvCache(config, context), tokens: prompt(round) }], v.feeds);
    v.prefill.push(context / ((performance.now() - t) / 1000));
  }
const result = {
  config: { hidden, layers: config.numLayers, vocab: config.vocabSize, fedTensors: fed.length, batch, context, rounds },
};
for (const v of variants) {
  result[v.name] = {
    decode_ms_per_step: Number(median(v.decode).toFixed(2)),
    prefill_tokens_per_s: Math.round(median(v.prefill)),
  };
  log(
    `${v.name}: decode ${result[v.name].decode_ms_per_step} ms/step (batch ${batch}), prefill ${result[v.name].prefill_tokens_per_s} tokens/s`,
  );
  await v.model.release();
}
result.fed_vs_baked_decode_ratio = Number((result.fed.decode_ms_per_step / result.baked.decode_ms_per_step).toFixed(3));
result.fed_vs_baked_prefill_ratio = Number(
  (result.fed.prefill_tokens_per_s / result.baked.prefill_tokens_per_s).toFixed(3),
);
console.log(JSON.stringify(result, null, 2));
