import { describe, expect, it } from 'vitest';
import { bidSelector } from './locate.js';

describe('bidSelector', () => {
  it('quotes the bid so quotes and backslashes cannot break out of the selector', () => {
    expect(bidSelector('12')).toBe('[bid="12"]');
    expect(bidSelector('1"]x')).toBe('[bid="1\\"]x"]');
    expect(bidSelector('a\\b')).toBe('[bid="a\\\\b"]');
    expect(bidSelector('a\nb')).toBe('[bid="a\\a b"]');
  });
});
