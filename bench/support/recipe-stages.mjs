// The first stages of the from-scratch recipe, every one a real process: `gauntlet-env collect`
// records the oracles' episodes, `gauntlet-trainer init-tiny --vocab-from` sizes a model and
// learns its tokenizer from them, `sft --train full` trains every weight on them.
// bench/sft-grpo.mjs and bench/sdft.mjs both start from these.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runBin } from './run-bin.mjs';

/** Oracle episodes of `tasks` on `seeds` into `out`; returns the sft.jsonl and its record count. */
export async function collectData({ out, tasks, seeds, args, onLine }) {
  await runBin('env-server', ['collect', '--out', out, '--seeds', seeds, '--task', tasks.join(','), ...args], {
    onLine,
  });
  const sftData = join(out, 'sft.jsonl');
  return { sftData, records: (await readFile(sftData, 'utf8')).split('\n').filter(Boolean).length };
}

/** A random model of the given shape whose BPE tokenizer is learnt from `sftData`. */
export function initModel({ model, sftData, hidden, layers, heads, vocab, seed }) {
  return runBin('trainer', [
    'init-tiny',
    model,
    ...['--hidden-size', hidden, '--layers', layers, '--heads', heads],
    ...['--tie-embeddings', 'false', '--seed', seed, '--max-positions', '2048'],
    ...['--vocab-from', sftData, '--vocab-size', vocab],
  ]);
}

/** Optimizer steps for `epochs` passes over `examples` at `batch` per step (at least one). */
export const sftSteps = (examples, epochs, batch) => Math.max(1, Math.ceil((examples * epochs) / batch));

/**
 * Full-parameter SFT of `model` on `sftData` into `out`: `epochs` passes over the examples sft
 * loads (its own count, demo-conditioned copies included), warmup 10 steps (or a fifth of a short
 * run, from `records`: cosine needs steps past the warmup), then cosine. Resolves with the steps
 * sft took (its metrics.jsonl's last row). `extra` flags go last.
 */
export async function trainSftFull({
  model,
  sftData,
  out,
  records,
  epochs,
  batch,
  lr,
  maxLength,
  promptLossWeight,
  threads,
  extra = [],
  onLine,
}) {
  const atLeast = sftSteps(records, epochs, Number(batch));
  await runBin(
    'trainer',
    [
      'sft',
      ...['--model', model, '--train', 'full', '--data', sftData, '--out', out],
      ...['--epochs', String(epochs), '--batch-size', String(batch), '--lr', lr],
      ...['--warmup', String(Math.min(10, Math.floor(atLeast / 5))), '--schedule', atLeast > 1 ? 'cosine' : 'constant'],
      ...['--max-length', String(maxLength), '--prompt-loss-weight', promptLossWeight, '--threads', threads],
      ...extra,
    ],
    { onLine },
  );
  return lastStep(join(out, 'metrics.jsonl'));
}

/** The step of the last row of a training run's metrics.jsonl (sft and dpo write one per step). */
async function lastStep(metrics) {
  const rows = (await readFile(metrics, 'utf8')).trim().split('\n');
  return JSON.parse(rows.at(-1)).step;
}

/**
 * A bench's stage log: `log` writes `[tag] line` to stderr, `relay(name)` passes a child's lines
 * on as `[tag:name]`, `timed(name, run)` logs a stage's start and end and keeps its seconds in
 * `timings` as `<name>_s`.
 */
export function stageTimer(tag) {
  const log = (line) => process.stderr.write(`[${tag}] ${line}\n`);
  const relay = (name) => (line) => line.trim() && process.stderr.write(`[${tag}:${name}] ${line}\n`);
  const timings = {};
  const timed = async (name, run) => {
    const t0 = Date.now();
    log(`${name}…`);
    const result = await run();
    timings[`${name}_s`] = Math.round((Date.now() - t0) / 100) / 10;
    log(`${name} done in ${timings[`${name}_s`]} s`);
    return result;
  };
  return { log, relay, timed, timings };
}

/**
 * The recipe's first three stages in `work`: collect the oracle episodes of `tasks` on `seeds`,
 * init a model of `shape` ({hidden, layers, heads, vocab, seed}) with a tokenizer learnt from
 * them, full-parameter SFT (`sft`: trainSftFull's settings). Each is a timed stage of `timer`.
 * Returns the data, its record count, the untrained model, the SFT model folder and its steps.
 */
export async function trainRecipe({ work, tasks, seeds, collectArgs, shape, sft, timer }) {
  const { sftData, records } = await timer.timed('collect', () =>
    collectData({ out: join(work, 'data'), tasks, seeds, args: collectArgs, onLine: timer.relay('collect') }),
  );
  const model = join(work, 'model');
  await timer.timed('init', () => initModel({ model, sftData, ...shape }));
  const sftDir = join(work, 'sft');
  const steps = await timer.timed('sft', () =>
    trainSftFull({ ...sft, model, sftData, out: sftDir, records, onLine: timer.relay('sft') }),
  );
  return { sftData, records, model, sftDir, steps };
}

/**
 * trainRecipe's `shape` and `sft` from a recipe bench's flags (hidden, layers, heads, vocab-size,
 * sft-epochs, sft-batch, sft-lr, max-length, prompt-loss-weight, threads), which sdft.mjs and
 * sft-grpo.mjs share; `number` range-checks a flag. `seed` seeds the weights, `extra` goes to sft.
 */
export function recipeSettings(values, number, { seed = '0', extra = [] } = {}) {
  return {
    shape: { hidden: values.hidden, layers: values.layers, heads: values.heads, vocab: values['vocab-size'], seed },
    sft: {
      epochs: number('sft-epochs', 0.01),
      batch: values['sft-batch'],
      lr: values['sft-lr'],
      maxLength: values['max-length'],
      promptLossWeight: values['prompt-loss-weight'],
      threads: values.threads,
      extra,
    },
  };
}
