import { describe, expect, it } from 'vitest';
import { MAX_BID_LENGTH, frameSegment, parseBid, prefixDepth } from './bid.js';

describe('parseBid', () => {
  it.each([
    ['12', [], false],
    ['0', [], false],
    ['a', [], true],
    ['a12', ['a'], false],
    ['aA', ['a'], true],
    ['aA12', ['a', 'aA'], false],
    ['aAb3', ['a', 'aA', 'aAb'], false],
    ['zz7', ['zz'], false],
    ['abCD', ['ab'], true],
  ])('%s → frames %j', (bid, framePath, isFrame) => {
    expect(parseBid(bid)).toEqual({ framePath, isFrame });
  });

  it.each(['', 'A', 'A1', '1a', 'a-1', '012', ' 12', 'aA1b'])('rejects %j', (bid) => {
    expect(parseBid(bid)).toBeNull();
  });

  it('takes linear time on adversarial bids (a run of letters, then a character that cannot match)', () => {
    // The old pattern nested quantifiers: 28 letters then '!' took seconds, each two more ×4.
    const hostile = [
      'a'.repeat(28) + '!',
      'aA'.repeat(120) + '!',
      'a'.repeat(10_000) + '!',
      'aB'.repeat(100_000) + '1x',
    ];
    for (const bid of hostile) {
      const started = performance.now();
      expect(parseBid(bid)).toBeNull();
      // Generous: linear work is well under a microsecond per character.
      expect(performance.now() - started).toBeLessThan(50 + bid.length * 0.01);
    }
  });

  it(`refuses bids longer than ${MAX_BID_LENGTH} characters without reading them`, () => {
    expect(parseBid('a'.repeat(MAX_BID_LENGTH - 1) + '1')).not.toBeNull();
    expect(parseBid('a'.repeat(MAX_BID_LENGTH) + '1')).toBeNull();
  });
});

describe('frameSegment', () => {
  it('counts a..z, then aa, ab, ... with the case of the depth', () => {
    expect([0, 1, 25, 26, 27, 51, 52, 701, 702].map((i) => frameSegment(i, 0))).toEqual([
      'a',
      'b',
      'z',
      'aa',
      'ab',
      'az',
      'ba',
      'zz',
      'aaa',
    ]);
    expect(frameSegment(0, 1)).toBe('A');
    expect(frameSegment(27, 3)).toBe('AB');
  });

  it('yields prefixes that parse back into their frame chain', () => {
    const prefix = 'b' + frameSegment(30, 1) + frameSegment(2, 2);
    expect(prefix).toBe('bAEc');
    expect(prefixDepth(prefix)).toBe(3);
    expect(parseBid(`${prefix}5`)?.framePath).toEqual(['b', 'bAE', 'bAEc']);
  });
});
