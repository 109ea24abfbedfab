#!/usr/bin/env node
// Prefix-cache benchmark: a multi-turn episode resends its whole conversation every turn (the last
// prompt + its completion + a new observation). Prints one JSON document with, per turn, the
// prefill time, the time to first token and the tokens prefilled, for two GenerationEngines on the
// same KvModel in the same run: one with the prefix cache (default budget) and one without.
//  - Each round plays one fresh episode (new token ids, so turn 1 never hits) on each engine,
//    alternating which goes first; the first round warms onnxruntime up and is not counted. Each
//    figure is the median over the counted rounds; prefill also reports the best round, which a
//    busy neighbour on a shared machine skews least.
//  - The two engines' sampled tokens must be equal (same seeds) and their logprobs within 1e-5;
//    the largest logprob difference is reported.
// Run `npx tsc -b trainer` first.
// Usage: node bench/prefix-cache.mjs [--hidden N] [--layers N] [--turns N] [--first N] [--growth N] [--completion N] [--rounds N] [--threads N]
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    hidden: { type: 'string', default: '256' },
    layers: { type: 'string', default: '4' },
    turns: { type: 'string', default: '5' },
    /** Prompt tokens of the first turn (system prompt and first observation). */
    first: { type: 'string', default: '120' },
    /** Tokens each turn adds: the completion plus the next observation. */
    growth: { type: 'string', default: '100' },
    completion: { type: 'string', default: '16' },
    rounds: { type: 'string', default: '5' },
    threads: { type: 'string' },
  },
});
const dist = (path) => import(new URL(`../trainer/dist/${path}`, import.meta.url).href);
const log = (msg) => process.stderr.write(`[bench] ${msg}\n`);
const { tinyModelConfig, tinyModelWeights } = await dist('model/tiny.js');
const { KvModel } = await dist('generate/kv-model.js');
const { kvAdapterFeeds } = await dist('generate/adapter-feeds.js');
const { GenerationEngine } = await dist('generate/engine.js');
const { samplingParams } = await dist('generate/sampling-params.js');
const { createRng } = await dist('model/random.js');

const hidden = Number(values.hidden);
const config = tinyModelConfig({
  hiddenSize: hidden,
  numLayers: Number(values.layers),
  numHeads: hidden / 64,
  numKvHeads: Math.max(1, hidden / 128),
  maxPositionEmbeddings: 8192,
});
const model = await KvModel.create(
  config,
  tinyModelWeights(config, 0),
  values.threads ? { intraOpNumThreads: Number(values.threads) } : {},
);
const feeds = kvAdapterFeeds(config);
const [turns, first, growth, completion, rounds] = ['turns', 'first', 'growth', 'completion', 'rounds'].map((k) =>
  Number(values[k]),
);
const observation = growth - completion;
const engines = {
  with_cache: new GenerationEngine(model, { eosTokenIds: [], decode: () => '' }),
  without_cache: new GenerationEngine(model, { eosTokenIds: [], decode: () => '', prefixCacheTokens: 0 }),
};
const now = () => performance.now();
const ids = (count, rng) => Array.from({ length: count }, () => Math.floor(rng.next() * 256));

/** One episode on one engine: per turn, prefill ms, time to first token, tokens prefilled; plus the samples. */
async function episode(engine, seed) {
  const rng = createRng(seed);
  let prompt = ids(first, rng);
  const perTurn = [];
  const samples = [];
  for (let turn = 0; turn < turns; turn++) {
    const prefillBefore = engine.stats.prefillSeconds;
    const tokensBefore = engine.stats.promptTokens;
    const submitted = now();
    let ttft;
    const params = samplingParams({ temperature: 1, seed: seed * 100 + turn, maxTokens: completion, ignoreEos: true });
    const result = await engine.generate({
      prompt,
      params,
      adapterFeeds: feeds,
      onToken: () => (ttft ??= now() - submitted),
    });
    perTurn.push({
      prompt_tokens: prompt.length,
      prefilled_tokens: engine.stats.promptTokens - tokensBefore,
      cached_tokens: result.cachedTokens,
      prefill_ms: (engine.stats.prefillSeconds - prefillBefore) * 1000,
      ttft_ms: ttft,
    });
    samples.push(result);
    prompt = [...prompt, ...result.tokenIds, ...ids(observation, rng)];
  }
  return { perTurn, samples };
}

const runs = { with_cache: [], without_cache: [] };
let sameTokens = true;
let worstLogprobDiff = 0;
for (let round = 0; round <= rounds; round++) {
  const order = round % 2 === 0 ? ['with_cache', 'without_cache'] : ['without_cache', 'with_cache'];
  const got = {};
  for (const name of order) got[name] = await episode(engines[name], 1000 + round);
  got.with_cache.samples.forEach((r, t) => {
    const plain = got.without_cache.samples[t];
    if (r.tokenIds.join() !== plain.tokenIds.join()) sameTokens = false;
    r.logprobs.forEach((lp, i) => (worstLogprobDiff = Math.max(worstLogprobDiff, Math.abs(lp - plain.logprobs[i]))));
  });
  if (round === 0) continue; // warm-up: onnxruntime plans memory for each new shape on its first runs
  for (const name of order) runs[name].push(got[name].perTurn);
  log(
    `round ${round}: prefill ms with ${got.with_cache.perTurn.map((t) => t.prefill_ms.toFixed(1)).join(' ')} | without ${got.without_cache.perTurn.map((t) => t.prefill_ms.toFixed(1)).join(' ')}`,
  );
}
await model.release();

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const round2 = (x) => Number(x.toFixed(2));
const summary = (name, turn) => {
  const at = runs[name].map((episodeTurns) => episodeTurns[turn]);
  return {
    prefill_ms: round2(median(at.map((t) => t.prefill_ms))),
    prefill_ms_best: round2(Math.min(...at.map((t) => t.prefill_ms))),
    ttft_ms: round2(median(at.map((t) => t.ttft_ms))),
    prefilled_tokens: at[0].prefilled_tokens,
    cached_tokens: at[0].cached_tokens,
  };
};
const perTurn = Array.from({ length: turns }, (_, turn) => {
  const withCache = summary('with_cache', turn);
  const withoutCache = summary('without_cache', turn);
  return {
    turn: turn + 1,
    prompt_tokens: runs.with_cache[0][turn].prompt_tokens,
    with_cache: withCache,
    without_cache: withoutCache,
    prefill_speedup: round2(withoutCache.prefill_ms / withCache.prefill_ms),
  };
});
const total = (name, field = 'prefill_ms') => round2(perTurn.reduce((n, t) => n + t[name][field], 0));
const stats = engines.with_cache.prefixCache.stats;
console.log(
  JSON.stringify(
    {
      bench: 'prefix-cache',
      model: {
        hidden_size: config.hiddenSize,
        layers: config.numLayers,
        heads: config.numHeads,
        kv_heads: config.numKvHeads,
        vocab: config.vocabSize,
      },
      threads: values.threads ? Number(values.threads) : 'default',
      episode: {
        turns,
        first_prompt_tokens: first,
        tokens_added_per_turn: growth,
        completion_tokens: completion,
        counted_rounds: rounds,
      },
      per_turn: perTurn,
      episode_prefill_ms: { with_cache: total('with_cache'), without_cache: total('without_cache') },
      episode_prefill_ms_best: {
        with_cache: total('with_cache', 'prefill_ms_best'),
        without_cache: total('without_cache', 'prefill_ms_best'),
      },
      exact: { same_tokens: sameTokens, max_logprob_diff: worstLogprobDiff },
      prefix_cache: {
        block_tokens: engines.with_cache.prefixCache.blockTokens,
        capacity_tokens: engines.with_cache.prefixCache.capacityTokens,
        ...stats,
      },
      peak_rss_mb: Math.round(process.resourceUsage().maxRSS / 1024),
    },
    null,
    2,
  ),
);
