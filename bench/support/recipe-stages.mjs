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
 * Full-parameter SFT of `model` on `sftData` into `out`: warmup 10 steps (or a fifth of a short
 * run: cosine needs steps past the warmup), then cosine. `extra` flags go last.
 */
export function trainSftFull({
  model,
  sftData,
  out,
  steps,
  batch,
  lr,
  maxLength,
  promptLossWeight,
  threads,
  extra = [],
  onLine,
}) {
  return runBin(
    'trainer',
    [
      'sft',
      ...['--model', model, '--train', 'full', '--data', sftData, '--out', out],
      ...['--steps', String(steps), '--batch-size', String(batch), '--lr', lr],
      ...['--warmup', String(Math.min(10, Math.floor(steps / 5))), '--schedule', steps > 1 ? 'cosine' : 'constant'],
      ...['--max-length', String(maxLength), '--prompt-loss-weight', promptLossWeight, '--threads', threads],
      ...extra,
    ],
    { onLine },
  );
}
