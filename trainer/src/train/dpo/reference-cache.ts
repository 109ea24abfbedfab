import { createHash, type Hash } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { LoraAdapter } from '../../lora/adapter.js';
import type { TensorMap } from '../../model/tensor.js';
import type { DpoPair, ScoredPair } from './pairs.js';

/** Bumped whenever the file's layout or what the key covers changes, so an old file is never misread. */
const CACHE_FORMAT = 1;

/** The file a dpo run keeps its reference log-probs in, inside its output folder. */
export const REFERENCE_CACHE_FILE = 'reference-logprobs.json';

/** What the reference log-probs depend on: everything that changes a scored value changes the key. */
export interface ReferenceIdentity {
  /** The model's config, as loaded. */
  config: unknown;
  weights: TensorMap;
  /** The frozen reference adapter; null scores the base model alone. */
  reference: LoraAdapter | null;
  /** The pairs as encoded: the tokens cover the data file, the tokenizer and --max-length at once. */
  pairs: readonly DpoPair[];
}

/** A sha256 over the model's every weight byte, the reference adapter and the encoded pairs. */
export function referenceCacheKey(id: ReferenceIdentity): string {
  const hash = createHash('sha256');
  const text = (value: unknown) => hash.update(`${JSON.stringify(value)}\n`);
  text({ format: CACHE_FORMAT, config: id.config });
  for (const name of [...id.weights.keys()].sort()) tensor(hash, text, name, id.weights.get(name)!);
  if (id.reference === null) text('reference: base');
  else {
    text({ reference: id.reference.config });
    for (const [path, m] of id.reference.modules) {
      tensor(hash, text, `${path}.a`, m.a);
      tensor(hash, text, `${path}.b`, m.b);
    }
  }
  for (const p of id.pairs) text([p.chosen.tokens, p.chosen.mask, p.rejected.tokens, p.rejected.mask]);
  return hash.digest('hex');
}

function tensor(
  hash: Hash,
  text: (v: unknown) => void,
  name: string,
  t: { shape: number[]; data: Float32Array },
): void {
  text([name, t.shape]);
  hash.update(new Uint8Array(t.data.buffer, t.data.byteOffset, t.data.byteLength));
}

interface CacheFile {
  format: number;
  key: string;
  /** Per pair, the chosen then the rejected side's log-probs. */
  ref: [number[], number[]][];
}

/** Why a cache file was not used: absent, made for other inputs, or unreadable (then recomputed and rewritten). */
export type CacheMiss = 'absent' | 'stale' | { corrupt: string };

/**
 * The cached log-probs for these pairs, or why there are none. A file that does not parse or does
 * not fit the pairs is a miss, not an error: the values are recomputed and the file rewritten.
 */
export async function readReferenceCache(
  file: string,
  key: string,
  pairs: readonly DpoPair[],
): Promise<ScoredPair[] | CacheMiss> {
  const text = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return null;
    throw error;
  });
  if (text === null) return 'absent';
  let parsed: CacheFile;
  try {
    parsed = JSON.parse(text) as CacheFile;
  } catch (error) {
    return { corrupt: (error as Error).message };
  }
  if (typeof parsed !== 'object' || parsed === null) return { corrupt: 'not a JSON object' };
  if (parsed.format !== CACHE_FORMAT || parsed.key !== key) return 'stale';
  if (!Array.isArray(parsed.ref) || parsed.ref.length !== pairs.length)
    return { corrupt: `${Array.isArray(parsed.ref) ? parsed.ref.length : 'no'} entries for ${pairs.length} pairs` };
  const scored: ScoredPair[] = [];
  for (const [i, pair] of pairs.entries()) {
    const [chosen, rejected] = parsed.ref[i] ?? [];
    if (!fits(chosen, pair.chosen.tokens.length) || !fits(rejected, pair.rejected.tokens.length))
      return { corrupt: `pair ${i}'s log-probs do not match its tokens` };
    scored.push({ ...pair, ref: { chosen, rejected } });
  }
  return scored;
}

function fits(values: unknown, length: number): values is number[] {
  return Array.isArray(values) && values.length === length && values.every((v) => typeof v === 'number');
}

/** Written whole then renamed into place, so an interrupted write never leaves a half file under the name. */
export async function writeReferenceCache(file: string, key: string, pairs: readonly ScoredPair[]): Promise<void> {
  const body: CacheFile = {
    format: CACHE_FORMAT,
    key,
    ref: pairs.map((p) => [Array.from(p.ref.chosen), Array.from(p.ref.rejected)]),
  };
  await mkdir(dirname(file), { recursive: true });
  await writeFile(`${file}.tmp`, JSON.stringify(body));
  await rename(`${file}.tmp`, file);
}

export function describeMiss(miss: CacheMiss): string {
  if (miss === 'absent') return 'no cache yet';
  if (miss === 'stale') return 'the cache was made for another model, reference or data; recomputing';
  return `the cache is unreadable (${miss.corrupt}); recomputing`;
}
