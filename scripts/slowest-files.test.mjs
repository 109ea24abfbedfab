import { describe, expect, it } from 'vitest';
import { fileSeconds, slowestLines, updatedSeconds } from './slowest-files.mjs';

describe('the slowest-files reporter', () => {
  it("counts a file's preparation, import, set-up and tests", () => {
    expect(fileSeconds({ prepareDuration: 500, collectDuration: 1500, setupDuration: 0, duration: 8000 })).toBe(10);
  });

  it('lists the slowest first, at most the count asked for', () => {
    const files = [
      { file: 'a.test.ts', seconds: 1 },
      { file: 'b.test.ts', seconds: 30.25 },
      { file: 'c.test.ts', seconds: 4 },
    ];
    expect(slowestLines(files, 2)).toEqual(['   30.3 s  b.test.ts', '    4.0 s  c.test.ts']);
  });
});

describe('the recorded seconds per file', () => {
  it('takes the files that ran at their new seconds, keeps the others, drops the files that are gone, sorted by path', () => {
    const recorded = { 'b.test.ts': 9, 'gone.test.ts': 3, 'a.test.ts': 1 };
    const ran = [{ file: 'a.test.ts', seconds: 2.345 }];
    const updated = updatedSeconds(recorded, ran, (file) => file !== 'gone.test.ts');
    expect(updated).toEqual({ 'a.test.ts': 2.3, 'b.test.ts': 9 });
    expect(Object.keys(updated)).toEqual(['a.test.ts', 'b.test.ts']);
  });
});
