import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REFERENCE_CACHE_FILE } from '../../src/train/dpo/index.js';
import { writeTinyModel } from '../../src/model/tiny.js';
import { useTempDirs } from '../support/temp-dir.js';
import { runInProcess } from './run-cli.js';

const tempDir = useTempDirs();

const PAIRS = [
  { prompt: 'color? ', chosen: 'red', rejected: 'blue' },
  { prompt: 'animal? ', chosen: 'cat', rejected: 'horse' },
  { prompt: 'greet: ', chosen: 'hello', rejected: 'go' },
];
const jsonl = (pairs: readonly unknown[]) => pairs.map((p) => JSON.stringify(p)).join('\n') + '\n';

// The reference pass runs once per model, reference and data: a second run into the same folder
// reads the cached log-probs (real onnxruntime scores the first), a changed input scores again.
describe('dpo reference log-probs cache', () => {
  it('is reused by a second run, invalidated by a changed data file, recomputed when corrupt', async () => {
    const root = await tempDir();
    const model = join(root, 'model');
    await writeTinyModel(model, { hiddenSize: 32, numHeads: 4, numKvHeads: 2 });
    const data = join(root, 'dpo.jsonl');
    await writeFile(data, jsonl(PAIRS));
    const out = join(root, 'run');
    const cache = join(out, REFERENCE_CACHE_FILE);
    const dpo = () =>
      runInProcess([
        'dpo',
        '--model',
        model,
        '--data',
        data,
        '--out',
        out,
        '--threads',
        '1',
        '--steps',
        '2',
        '--force',
      ]);
    const adapter = () => readFile(join(out, 'adapter_model.safetensors'));

    const first = await dpo();
    expect(first.code, first.stderr).toBe(0);
    expect(first.stderr).toContain('dpo: reference log-probs: no cache yet');
    expect(first.stderr).toMatch(/dpo: reference scored 3\/3 pairs \(\d+\.\d pairs\/s\)/);
    expect(first.stderr).toContain(`dpo: reference log-probs of 3 pairs cached in ${cache}`);
    const trained = await adapter();

    const second = await dpo();
    expect(second.code, second.stderr).toBe(0);
    expect(second.stderr).toContain(`dpo: reference log-probs of 3 pairs read from ${cache}; 0 pairs scored`);
    expect(second.stderr).not.toMatch(/reference scored/);
    // The cached values are the scored ones: the same seed trains the same adapter, byte for byte.
    expect((await adapter()).equals(trained)).toBe(true);

    await writeFile(data, jsonl([...PAIRS, { prompt: '2+2=', chosen: '4', rejected: 'five' }]));
    const changed = await dpo();
    expect(changed.code, changed.stderr).toBe(0);
    expect(changed.stderr).toContain(
      'dpo: reference log-probs: the cache was made for another model, reference or data; recomputing',
    );
    expect(changed.stderr).toMatch(/dpo: reference scored 4\/4 pairs/);

    await writeFile(cache, '{"format": 1, "key": ');
    const corrupt = await dpo();
    expect(corrupt.code, corrupt.stderr).toBe(0);
    expect(corrupt.stderr).toMatch(/dpo: reference log-probs: the cache is unreadable \(.+\); recomputing/);
    expect(corrupt.stderr).toMatch(/dpo: reference scored 4\/4 pairs/);
    const again = await dpo();
    expect(again.stderr).toContain('0 pairs scored');
  }, 120_000);
});
