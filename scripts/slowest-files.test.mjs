import { describe, expect, it } from 'vitest';
import { fileSeconds, slowestLines } from './slowest-files.mjs';

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
