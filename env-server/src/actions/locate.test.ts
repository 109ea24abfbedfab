import { describe, expect, it } from 'vitest';
import { bidSelector, splitBid } from './locate.js';

describe('splitBid', () => {
  it.each([
    ['12', []],
    ['a12', ['a']],
    ['aA5', ['a', 'aA']],
    ['aAb7', ['a', 'aA', 'aAb']],
    ['ab3', ['ab']],
  ])('element %s lives in frames %j', (bid, frames) => {
    expect(splitBid(bid)).toEqual({ frames, bid });
  });

  it.each([
    ['a', []],
    ['aA', ['a']],
    ['aAb', ['a', 'aA']],
  ])('iframe element %s lives in frames %j (its own letters name it, not a frame to enter)', (bid, frames) => {
    expect(splitBid(bid)).toEqual({ frames, bid });
  });

  it('keeps odd bids whole instead of guessing', () => {
    expect(splitBid('')).toEqual({ frames: [], bid: '' });
    expect(splitBid('12a')).toEqual({ frames: [], bid: '12a' });
  });
});

describe('bidSelector', () => {
  it('quotes the bid so quotes and backslashes cannot break out of the selector', () => {
    expect(bidSelector('12')).toBe('[bid="12"]');
    expect(bidSelector('1"]x')).toBe('[bid="1\\"]x"]');
    expect(bidSelector('a\\b')).toBe('[bid="a\\\\b"]');
    expect(bidSelector('a\nb')).toBe('[bid="a\\a b"]');
  });
});
