import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { costliestFirst, readFileSeconds } from './test-order.mjs';

const dir = mkdtempSync(join(tmpdir(), 'gauntlet-test-order-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the order test files start in', () => {
  it('puts files with no record first, then the costliest, ties by path', () => {
    const files = ['cheap.test.ts', 'new.test.ts', 'dear.test.ts', 'b-mid.test.ts', 'a-mid.test.ts'].map((file) => ({
      file,
    }));
    const seconds = { 'cheap.test.ts': 1, 'dear.test.ts': 300, 'a-mid.test.ts': 20, 'b-mid.test.ts': 20 };
    expect(costliestFirst(files, seconds).map((f) => f.file)).toEqual([
      'new.test.ts',
      'dear.test.ts',
      'a-mid.test.ts',
      'b-mid.test.ts',
      'cheap.test.ts',
    ]);
  });

  it('reads a missing or broken record as no record', () => {
    expect(readFileSeconds(join(dir, 'missing.json'))).toEqual({});
    writeFileSync(join(dir, 'broken.json'), '{ not json');
    expect(readFileSeconds(join(dir, 'broken.json'))).toEqual({});
    writeFileSync(join(dir, 'list.json'), '[1, 2]');
    expect(readFileSeconds(join(dir, 'list.json'))).toEqual({});
    writeFileSync(join(dir, 'ok.json'), '{"a.test.ts": 4}');
    expect(readFileSeconds(join(dir, 'ok.json'))).toEqual({ 'a.test.ts': 4 });
  });
});
