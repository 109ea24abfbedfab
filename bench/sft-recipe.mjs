#!/usr/bin/env node
// SFT recipe benchmark: does `gauntlet-trainer sft` learn from Gauntlet oracle data in minutes on CPU?
//  1. `gauntlet-env collect` (run as a process) records oracle episodes: train seeds and held-out seeds;
//  2. `gauntlet-trainer init-tiny` writes the recipe's seeded model, `gauntlet-trainer sft` trains a
//     LoRA adapter on the train records with the recipe's flags (its per-step loss is the loss curve);
//  3. `gauntlet-trainer serve` serves the model with the adapter; every assistant turn of the held-out
//     records is a next-action question (the conversation up to it, oldest exchanges dropped to fit
//     as sft does), answered greedily (temperature 0) by the untrained model — the baseline — and by
//     the adapter, in the same run. Exact match: the reply equals the oracle's action string;
//     same_action: its first action names the same function (click, fill, noop, …).
//     A prior baseline says what always giving the training data's most common action (and function)
//     would score.
// Prints one JSON document. Run `npm run build` first; Chromium must be installed (as for collect).
// Usage: node bench/sft-recipe.mjs [--train-seeds 0-7] [--eval-seeds 100-101] [--steps 300] [--lr 3e-3] [--warmup 5]
//          [--batch-size 1] [--prompt-loss-weight 0.1] [--tie-embeddings false] [--vocab-size 2048 (0: bytes)]
//          [--max-length N]
//          [--train FILE --eval FILE (reuse collected sft.jsonl files)] [--keep DIR]
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    'train-seeds': { type: 'string', default: '0-7' },
    'eval-seeds': { type: 'string', default: '100-101' },
    train: { type: 'string' },
    eval: { type: 'string' },
    steps: { type: 'string', default: '300' },
    lr: { type: 'string', default: '3e-3' },
    warmup: { type: 'string', default: '5' },
    'batch-size': { type: 'string', default: '1' },
    rank: { type: 'string', default: '16' },
    'hidden-size': { type: 'string', default: '256' },
    layers: { type: 'string', default: '4' },
    heads: { type: 'string', default: '4' },
    'tie-embeddings': { type: 'string', default: 'false' },
    'vocab-size': { type: 'string', default: '2048' },
    'max-length': { type: 'string' },
    'prompt-loss-weight': { type: 'string', default: '0.1' },
    'eval-max': { type: 'string', default: '30' },
    keep: { type: 'string' },
  },
});
const log = (msg) => process.stderr.write(`[bench] ${msg}\n`);
const bin = (path) => fileURLToPath(new URL(`../${path}`, import.meta.url));
const dist = (path) => import(new URL(`../trainer/dist/${path}`, import.meta.url).href);
const ENV = bin('env-server/bin/cli.js');
const TRAINER = bin('trainer/bin/cli.js');

const work = values.keep ?? (await mkdtemp(join(tmpdir(), 'gauntlet-sft-recipe-')));
const seconds = (start) => +((performance.now() - start) / 1000).toFixed(1);
const started = performance.now();
const loadBefore = loadavg().map((l) => +l.toFixed(2));
try {
  const timing = {};
  let t = performance.now();
  const trainFile = values.train ?? (await collect('train', values['train-seeds']));
  const evalFile = values.eval ?? (await collect('eval', values['eval-seeds']));
  timing.collect_s = seconds(t);

  const model = join(work, 'model');
  const size = [
    ...['--hidden-size', values['hidden-size'], '--layers', values.layers, '--heads', values.heads],
    ...['--tie-embeddings', values['tie-embeddings']],
    // The tokenizer learns its merges from the training records only; 0 keeps one token per byte.
    ...(values['vocab-size'] === '0' ? [] : ['--vocab-from', trainFile, '--vocab-size', values['vocab-size']]),
  ];
  const made = await run(TRAINER, ['init-tiny', model, ...size, '--seed', '0', '--force']);
  const parameters = /\(([\d.]+[KM]?) parameters/.exec(made.stdout)?.[1];

  const rank = Number(values.rank);
  const sftFlags = [
    ...['--lr', values.lr, '--warmup', values.warmup, '--steps', values.steps, '--batch-size', values['batch-size']],
    ...['--rank', String(rank), '--alpha', String(2 * rank), '--schedule', 'constant', '--seed', '0'],
    ...['--prompt-loss-weight', values['prompt-loss-weight']],
    ...(values['max-length'] ? ['--max-length', values['max-length']] : []),
  ];
  const adapter = join(work, 'adapter');
  t = performance.now();
  log(`sft ${sftFlags.join(' ')} on ${trainFile}…`);
  const sft = await run(TRAINER, [
    'sft',
    '--model',
    model,
    '--data',
    trainFile,
    '--out',
    adapter,
    '--force',
    ...sftFlags,
  ]);
  timing.train_s = seconds(t);
  const curve = [...sft.stderr.matchAll(/^step +(\d+)\/\d+ {2}loss (\S+)/gm)].map((m) => Number(m[2]));
  // With --prompt-loss-weight the loss weighs every token; completion-loss is the actions' own.
  const actionCurve = [...sft.stderr.matchAll(/^step .* completion-loss (\S+)/gm)].map((m) => Number(m[1]));

  t = performance.now();
  const maxLength = values['max-length'] ? Number(values['max-length']) : undefined;
  const questions = await nextActionQuestions(evalFile, model, Number(values['eval-max']), maxLength);
  const prior = await priorBaseline(trainFile, questions);
  log(`${questions.length} held-out next-action questions; serving base and adapter…`);
  const server = await serve(model, adapter);
  let before, after;
  try {
    before = await score(server.url, 'model', questions);
    after = await score(server.url, 'sft', questions);
  } finally {
    server.stop();
  }
  timing.eval_s = seconds(t);

  const mean = (xs) => +(xs.reduce((a, b) => a + b, 0) / xs.length).toFixed(4);
  process.stdout.write(
    `${JSON.stringify(
      {
        benchmark: 'sft-recipe',
        machine: { cpus: cpus().length, node: process.version, load_average_before: loadBefore },
        recipe: {
          model: `init-tiny ${size.join(' ')} --seed 0`,
          parameters,
          sft: sftFlags.join(' '),
          data: { train: trainFile, eval: evalFile, sft_notes: sft.stderr.match(/^sft: .*$/gm) },
        },
        loss: { first5: mean(curve.slice(0, 5)), last5: mean(curve.slice(-5)), curve },
        ...(actionCurve.length > 0
          ? {
              completion_loss: {
                first5: mean(actionCurve.slice(0, 5)),
                last5: mean(actionCurve.slice(-5)),
                curve: actionCurve,
              },
            }
          : {}),
        baseline_prior: prior,
        baseline_untrained: before,
        trained: after,
        questions: questions.length,
        timing: { ...timing, wall_s: seconds(started) },
        load_average_after: loadavg().map((l) => +l.toFixed(2)),
      },
      null,
      2,
    )}\n`,
  );
} finally {
  if (!values.keep) await rm(work, { recursive: true, force: true });
}

async function collect(name, seeds) {
  const out = join(work, name);
  log(`collect --seeds ${seeds} (${name})…`);
  await run(ENV, ['collect', '--out', out, '--seeds', seeds, '--no-dpo', '--concurrency', '2']);
  return join(out, 'sft.jsonl');
}

/**
 * Each assistant turn of the held-out records: the conversation before it, fitted as sft fits it
 * (within --max-length, else the model's positions, less room for the reply), and the answer.
 */
async function nextActionQuestions(file, modelDir, max, maxLength) {
  const { ModelTokenizer } = await dist('model/tokenizer.js');
  const { readModelConfig } = await dist('model/config.js');
  const { trimConversation } = await dist('train/sft-trim.js');
  const tokenizer = await ModelTokenizer.load(modelDir);
  const room = (maxLength ?? (await readModelConfig(modelDir)).maxPositionEmbeddings) - 64; // room for the reply
  const records = (await readFile(file, 'utf8'))
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  const all = records.flatMap((record) =>
    record.messages.flatMap((m, k) => {
      if (m.role !== 'assistant') return [];
      const messages = record.messages.slice(0, k).map(({ role, content }) => ({ role, content }));
      const encode = (c) => ({ tokens: tokenizer.encodeChat(c.messages, { addGenerationPrompt: true }) });
      const fit = trimConversation({ messages, trained: messages.map(() => false) }, room, encode);
      const answerTokens = tokenizer.encode(m.content).length;
      return fit ? [{ messages: fit.messages, answer: m.content, answerTokens, type: record.type }] : [];
    }),
  );
  // An even spread over the held-out turns when there are more than `max`.
  if (all.length <= max) return all;
  return Array.from({ length: max }, (_, i) => all[Math.floor((i * all.length) / max)]);
}

/** The function an action string starts with (click, fill, noop, …). */
function kind(action) {
  return /^\s*(\w+)\(/.exec(action)?.[1];
}

/**
 * What knowing only the training data's frequencies scores: always answering the most common
 * training action (exact match), and always naming the most common function (same_action).
 */
async function priorBaseline(trainFile, questions) {
  const answers = (await readFile(trainFile, 'utf8'))
    .trim()
    .split('\n')
    .flatMap((l) =>
      JSON.parse(l)
        .messages.filter((m) => m.role === 'assistant')
        .map((m) => m.content.trim()),
    );
  const mode = (xs) => {
    const counts = new Map();
    for (const x of xs) counts.set(x, (counts.get(x) ?? 0) + 1);
    return [...counts].sort((a, b) => b[1] - a[1])[0][0];
  };
  const action = mode(answers);
  const name = mode(answers.map(kind).filter((k) => k !== undefined));
  const rate = (n) => +(n / questions.length).toFixed(4);
  return {
    answer: action,
    exact_match: rate(questions.filter((q) => q.answer.trim() === action).length),
    function: name,
    same_action: rate(questions.filter((q) => kind(q.answer) === name).length),
  };
}

async function score(url, model, questions) {
  let exact = 0;
  let sameAction = 0;
  const samples = [];
  for (const q of questions) {
    // Room for the oracle's whole answer and its end-of-turn token: a longer action can still match.
    const maxTokens = Math.max(48, q.answerTokens + 8);
    const reply = await fetch(`${url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model, messages: q.messages, temperature: 0, max_tokens: maxTokens }),
    }).then((r) => r.json());
    const text = reply.choices?.[0]?.message?.content ?? `(error: ${JSON.stringify(reply).slice(0, 200)})`;
    if (text.trim() === q.answer.trim()) exact++;
    if (kind(text) !== undefined && kind(text) === kind(q.answer)) sameAction++;
    if (samples.length < 6) samples.push({ oracle: q.answer, model: text });
  }
  const rate = (n) => +(n / questions.length).toFixed(4);
  return { exact_match: rate(exact), same_action: rate(sameAction), samples };
}

function serve(model, adapter) {
  const child = spawn(
    process.execPath,
    [TRAINER, 'serve', '--model', model, '--adapter', `sft=${adapter}`, '--port', '0'],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let errText = '';
  child.stderr.on('data', (c) => (errText += c));
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (c) => {
      out += c;
      const url = / at (http:\/\/\S+)/.exec(out)?.[1];
      if (url) resolve({ url, stop: () => child.kill('SIGINT') });
    });
    child.on('exit', (code) => reject(new Error(`serve exited (${code}): ${errText.slice(-500)}`)));
  });
}

function run(file, args) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [file, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => {
      stderr += c;
      for (const line of String(c).split('\n')) if (/^(step|\[collect\].*\d+\/\d+)/.test(line)) log(line.trim());
    });
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve({ stdout, stderr }) : reject(new Error(`${args[0]} exited ${code}: ${stderr.slice(-800)}`)),
    );
  });
}
