#!/usr/bin/env node
// Associative-recall probe: can the from-scratch tiny model, trained with the trainer's own engine
// (full-parameter SFT: LoraTrainer with every weight trained, AdamW, the sft loss on the answer
// token only), learn to look a value up by its key in the context? This is what reading a page
// needs (find the element the goal names, answer its bid), stripped of the tokenizer and the env.
//
// Each example holds K key→value pairs, then a query key; the answer is the value paired with it.
// Chance is 1/K (a model that learnt the value vocabulary but not the lookup). The same-run
// control trains an identical model on the same prompts where the answer is the first pair's
// value: copying from a fixed position, which needs no content matching. The untrained model's
// accuracy is the floor. Prints one JSON document: held-out accuracy and answer loss per task,
// against chance and log K.
//
//   node bench/recall-probe.mjs [--steps 400] [--batch 32] [--lr 1e-3] [--tasks recall,copy] [--help]
// Build first: npx tsc -b proto trainer.
import { cpus, loadavg } from 'node:os';
import { seededRandom } from '../proto/dist/random/index.js';
import { benchOptions } from './support/bench-options.mjs';

const OPTIONS = {
  tasks: { type: 'string', default: 'recall,copy', help: 'Tasks to train, each from the same init: recall, copy' },
  steps: { type: 'string', default: '400', help: 'Optimizer steps per task' },
  batch: { type: 'string', default: '32', help: 'Sequences per step' },
  lr: { type: 'string', default: '1e-3', help: 'Peak learning rate' },
  warmup: { type: 'string', default: '20', help: 'Linear warmup steps' },
  schedule: { type: 'string', default: 'constant', help: 'After warmup: constant, linear or cosine' },
  'weight-decay': { type: 'string', default: '0', help: 'AdamW decoupled weight decay' },
  clip: { type: 'string', default: '1', help: 'Global gradient-norm clip (0: none)' },
  hidden: { type: 'string', default: '128', help: 'Hidden size' },
  layers: { type: 'string', default: '2', help: 'Decoder layers' },
  heads: { type: 'string', default: '4', help: 'Attention heads' },
  'kv-heads': { type: 'string', default: '0', help: 'KV heads (0: heads / 2, as init-tiny)' },
  arch: { type: 'string', default: 'qwen2', help: 'llama, qwen2 or qwen3' },
  'block-std': { type: 'string', default: '0.02', help: 'Std of the decoder blocks’ matrices (init-tiny: 0.02)' },
  'embed-std': { type: 'string', default: '0', help: 'Std of the embedding rows (0: init-tiny’s 1.6/√hidden)' },
  'min-pairs': { type: 'string', default: '2', help: 'Fewest key→value pairs per example' },
  'max-pairs': { type: 'string', default: '6', help: 'Most key→value pairs per example' },
  keys: { type: 'string', default: '64', help: 'Distinct key tokens' },
  values: { type: 'string', default: '16', help: 'Distinct value tokens' },
  filler: { type: 'string', default: '0', help: 'Random filler tokens after each pair (longer contexts)' },
  queries: {
    type: 'string',
    default: '1',
    help: 'Queries per training sequence, each "? key value" with its value trained (held-out: the first)',
  },
  order: {
    type: 'string',
    default: 'kv',
    help: 'kv: key then value; vk: value then key (a bid before its name); fused: one token per pair (one layer can answer)',
  },
  'all-tokens': {
    type: 'boolean',
    default: false,
    help: 'Train on every token (language-model loss), not only the answers',
  },
  train: { type: 'string', default: '20000', help: 'Training examples (fresh seeds)' },
  eval: { type: 'string', default: '256', help: 'Held-out examples' },
  'eval-every': { type: 'string', default: '100', help: 'Steps between held-out evaluations' },
  'query-alias': {
    type: 'boolean',
    default: false,
    help: 'Diagnostic: the query names key i by another token than the context key (no same-token match)',
  },
  'plant-prev-head': {
    type: 'boolean',
    default: false,
    help: 'Diagnostic: --prev-token-heads 1',
  },
  'prev-token-heads': {
    type: 'string',
    default: '0',
    help: 'Diagnostic: start layer 0 heads 0..N-1 as previous-token heads at offsets 1..N, as init-tiny --prev-token-heads (qwen2)',
  },
  seed: { type: 'string', default: '0', help: 'Seed of the weights and the data' },
  threads: { type: 'string', default: '0', help: 'onnxruntime intra-op threads (0: its default)' },
  help: { type: 'boolean', default: false, help: 'Show this help' },
};

const { values, number } = benchOptions(
  OPTIONS,
  'Usage: node bench/recall-probe.mjs [options]\n\nTrains the tiny model from scratch on associative recall and a position-copy control; prints JSON.\n',
);
const int = (name, min, max) => Math.floor(number(name, min, max));
const s = {
  steps: int('steps', 1),
  batch: int('batch', 1),
  lr: number('lr', 0),
  warmup: int('warmup', 0),
  schedule: values.schedule,
  weightDecay: number('weight-decay', 0),
  clip: number('clip', 0),
  hidden: int('hidden', 8),
  layers: int('layers', 1),
  heads: int('heads', 1),
  kvHeads: int('kv-heads', 0),
  arch: values.arch,
  blockStd: number('block-std', 0),
  embedStd: number('embed-std', 0),
  minPairs: int('min-pairs', 1),
  maxPairs: int('max-pairs', 1),
  keys: int('keys', 2, 80),
  values: int('values', 2, 80),
  filler: int('filler', 0),
  queries: int('queries', 1),
  allTokens: values['all-tokens'],
  order: values.order,
  train: int('train', 1),
  eval: int('eval', 1),
  evalEvery: int('eval-every', 1),
  seed: int('seed', 0),
  threads: int('threads', 0),
  prevTokenHeads: values['plant-prev-head'] ? Math.max(1, int('prev-token-heads', 0)) : int('prev-token-heads', 0),
};
const tasks = values.tasks.split(',');
const usage = (message) => {
  console.error(message);
  process.exit(2);
};
if (tasks.some((t) => t !== 'recall' && t !== 'copy')) usage(`--tasks: recall and/or copy, got ${values.tasks}`);
if (!['constant', 'linear', 'cosine'].includes(s.schedule)) usage(`--schedule: constant, linear or cosine`);
if (!['kv', 'vk', 'fused'].includes(s.order)) usage(`--order: kv, vk or fused, got ${s.order}`);
if (!['llama', 'qwen2', 'qwen3'].includes(s.arch)) usage(`--arch: llama, qwen2 or qwen3`);
if (s.maxPairs < s.minPairs || s.maxPairs > s.keys || s.maxPairs > s.values)
  usage('--max-pairs must be ≥ --min-pairs and ≤ --keys and --values (keys and values are distinct per example)');
const log = (line) => process.stderr.write(`[recall] ${line}\n`);
const dist = (path) => import(new URL(`../trainer/dist/${path}`, import.meta.url).href);

// Token ids of the byte-level vocabulary, in disjoint ranges: values, keys, filler, markers.
const VALUE0 = 48;
const KEY0 = 128;
const FILLER0 = 210;
const FILLERS = 40;
const START = 2;
const QUERY = 63; // '?'
// --order fused: pair (key i, value j) is token PAIR0 + i·values + j; the query names key i as FUSED_KEY0 + i.
const PAIR0 = 100;
const FUSED_KEY0 = 3;
if (s.order === 'fused' && s.keys * s.values > FILLER0 - PAIR0)
  usage(`--order fused: --keys × --values must be ≤ ${FILLER0 - PAIR0}`);
if ((s.order === 'fused' || values['query-alias']) && s.keys > VALUE0 - FUSED_KEY0)
  usage(`--order fused and --query-alias: --keys must be ≤ ${VALUE0 - FUSED_KEY0}`);

/** One example: prompt tokens and the answer, for either task (same prompt distribution). */
function example(random, task) {
  const pick = (n, count) => {
    const all = [...Array(n).keys()];
    for (let i = n - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [all[i], all[j]] = [all[j], all[i]];
    }
    return all.slice(0, count);
  };
  const k = s.minPairs + Math.floor(random() * (s.maxPairs - s.minPairs + 1));
  const fused = s.order === 'fused';
  const keyIndex = pick(s.keys, k);
  const valueIndex = pick(s.values, k);
  const keys = keyIndex.map((i) => (fused ? FUSED_KEY0 : KEY0) + i);
  const vals = valueIndex.map((i) => VALUE0 + i);
  const prompt = [START];
  for (let i = 0; i < k; i++) {
    if (fused) prompt.push(PAIR0 + keyIndex[i] * s.values + valueIndex[i]);
    else prompt.push(...(s.order === 'kv' ? [keys[i], vals[i]] : [vals[i], keys[i]]));
    for (let f = 0; f < s.filler; f++) prompt.push(FILLER0 + Math.floor(random() * FILLERS));
  }
  // Queries with replacement: a sequence may ask one key twice (the second time, a copy would do).
  const asked = Array.from({ length: s.queries }, () => Math.floor(random() * k));
  const answer = (i) => (task === 'recall' ? vals[i] : vals[0]);
  const ask = (i) => (values['query-alias'] && !fused ? FUSED_KEY0 + keyIndex[i] : keys[i]);
  prompt.push(QUERY, ask(asked[0]));
  const more = asked.slice(1).flatMap((i) => [QUERY, ask(i), answer(i)]);
  return { prompt, answer: answer(asked[0]), more, pairs: k };
}

/** The training sequence: prompt, answer, then the further queries; each query's value is trained. */
function trainSequence(e) {
  const tokens = [...e.prompt, e.answer, ...e.more];
  const mask = tokens.map((_, t) =>
    s.allTokens || t === e.prompt.length || (t > e.prompt.length && (t - e.prompt.length) % 3 === 0) ? 1 : 0,
  );
  return { tokens, mask };
}

function dataset(task, n, seed) {
  const random = seededRandom(seed);
  return Array.from({ length: n }, () => example(random, task));
}

const { tinyModelConfig, tinyModelWeights } = await dist('model/tiny.js');
const { LoraTrainer } = await dist('train/trainer.js');
const { FULL } = await dist('train/trainable.js');
const { makeLoraConfig } = await dist('lora/config.js');
const { ModelRunner } = await dist('graph/graph-runner.js');

const config = tinyModelConfig({
  architecture: s.arch,
  hiddenSize: s.hidden,
  numLayers: s.layers,
  numHeads: s.heads,
  ...(s.kvHeads ? { numKvHeads: s.kvHeads } : {}),
});
if (s.prevTokenHeads > 0 && s.arch !== 'qwen2')
  usage('--prev-token-heads needs --arch qwen2 (q/k biases carry the heads)');
if (s.prevTokenHeads > config.numHeads) usage(`--prev-token-heads: at most --heads (${config.numHeads})`);
// Rescaling after planting would scale the planted heads too; planting after it would leave init-tiny's model.
if (s.prevTokenHeads > 0 && s.blockStd !== 0.02) usage('--prev-token-heads keeps init-tiny’s --block-std 0.02');
// The planted model is init-tiny's: the trainer's plantPreviousTokenHeads (model/plant-heads.ts) via tinyModelWeights.
const initial = tinyModelWeights(config, s.seed, {
  ...(s.embedStd ? { embeddingStd: s.embedStd } : {}),
  previousTokenHeads: s.prevTokenHeads,
});
// init-tiny draws block matrices at std 0.02: rescale them (norm weights and embeddings stay).
for (const [name, w] of initial)
  if (name.startsWith('model.layers.') && !name.endsWith('norm.weight') && s.blockStd !== 0.02)
    for (let i = 0; i < w.data.length; i++) w.data[i] *= s.blockStd / 0.02;
const runtime = s.threads ? { intraOpNumThreads: s.threads } : {};

/** Held-out accuracy (argmax over the whole vocabulary at the answer position) and mean answer NLL. */
async function evaluate(weights, examples) {
  const runner = await ModelRunner.create(config, weights, { runtime });
  try {
    let correct = 0;
    let nll = 0;
    for (let i = 0; i < examples.length; i += 64) {
      const chunk = examples.slice(i, i + 64);
      const logits = await runner.logits(chunk.map((e) => e.prompt));
      const [, seq, vocab] = logits.dims;
      chunk.forEach((e, b) => {
        const row = logits.data.subarray((b * seq + e.prompt.length - 1) * vocab, (b * seq + e.prompt.length) * vocab);
        let best = 0;
        let max = -Infinity;
        for (let v = 0; v < vocab; v++) if (row[v] > max) [max, best] = [row[v], v];
        let sum = 0;
        for (let v = 0; v < vocab; v++) sum += Math.exp(row[v] - max);
        nll += Math.log(sum) + max - row[e.answer];
        if (best === e.answer) correct++;
      });
    }
    return { accuracy: +(correct / examples.length).toFixed(4), answer_nll: +(nll / examples.length).toFixed(4) };
  } finally {
    await runner.release();
  }
}

async function trainTask(task) {
  const train = dataset(task, s.train, 1000 + s.seed);
  const held = dataset(task, s.eval, 2000 + s.seed);
  const chance = held.reduce((sum, e) => sum + 1 / e.pairs, 0) / held.length;
  const chanceNll = held.reduce((sum, e) => sum + Math.log(e.pairs), 0) / held.length;
  const untrained = await evaluate(initial, held);
  const trainer = await LoraTrainer.create({
    config,
    weights: initial,
    lora: makeLoraConfig({ rank: 1, alpha: 1 }),
    train: FULL,
    seed: s.seed,
    schedule: { lr: s.lr, warmupSteps: s.warmup, decay: s.schedule, totalSteps: s.steps },
    optimizer: { weightDecay: s.weightDecay },
    maxGradNorm: s.clip > 0 ? s.clip : Infinity,
    runtime,
  });
  const sequences = train.map(trainSequence);
  const random = seededRandom(3000 + s.seed);
  const curve = [];
  const started = performance.now();
  let window = [];
  try {
    for (let step = 1; step <= s.steps; step++) {
      const batch = Array.from({ length: s.batch }, () => sequences[Math.floor(random() * sequences.length)]);
      const result = await trainer.trainStep(batch);
      window.push(result.loss);
      if (step % s.evalEvery === 0 || step === s.steps) {
        const held_out = await evaluate(trainer.modelWeights(), held);
        const point = {
          step,
          train_loss: +(window.reduce((a, b) => a + b, 0) / window.length).toFixed(4),
          grad_norm: +result.gradNorm.toFixed(3),
          ...held_out,
          seconds: +((performance.now() - started) / 1e3).toFixed(1),
        };
        curve.push(point);
        window = [];
        log(`${task} ${JSON.stringify(point)}`);
      }
    }
  } finally {
    await trainer.release();
  }
  const last = curve.at(-1);
  return {
    task,
    chance_accuracy: +chance.toFixed(4),
    chance_nll: +chanceNll.toFixed(4),
    untrained,
    final: { accuracy: last.accuracy, answer_nll: last.answer_nll },
    above_chance: +(last.accuracy - chance).toFixed(4),
    seconds: last.seconds,
    curve,
  };
}

const loadBefore = loadavg().map((l) => +l.toFixed(2));
const results = [];
for (const task of tasks) results.push(await trainTask(task));
const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
const lengths = dataset('recall', 200, 1).map((e) => e.prompt.length + 1);
process.stdout.write(
  `${JSON.stringify(
    {
      benchmark: 'recall-probe',
      machine: {
        cpus: cpus().length,
        node: process.version,
        load_average_before: loadBefore,
        load_average_after: loadavg().map((l) => +l.toFixed(2)),
      },
      settings: { ...s, tasks },
      model: {
        architecture: config.architecture,
        hidden: config.hiddenSize,
        layers: config.numLayers,
        heads: config.numHeads,
        kv_heads: config.numKvHeads,
        head_dim: config.headDim,
        parameters: [...initial.values()].reduce((n, w) => n + w.data.length, 0),
      },
      sequence_length: { mean: +mean(lengths).toFixed(1), max: Math.max(...lengths) },
      target: 'recall: held-out accuracy well above chance (1/K), as the copy control reaches',
      results,
    },
    null,
    2,
  )}\n`,
);
