import { describe, expect, it } from 'vitest';
import { pyFixed, pyNumber, pyRepr, pyStr } from './repr.js';

// Expected values are what CPython 3.12 prints.
describe('pyStr', () => {
  it.each([
    ['plain', "'plain'"],
    ["it's", '"it\'s"'],
    ['say "hi"', `'say "hi"'`],
    [`both ' and "`, `'both \\' and "'`],
    ['a\nb\tc\r', "'a\\nb\\tc\\r'"],
    ['back\\slash', "'back\\\\slash'"],
    ['nbsp\u00a0here', "'nbsp\\xa0here'"],
    ['zero\u200bwidth', "'zero\\u200bwidth'"],
    ['bell\u0007', "'bell\\x07'"],
    ['café ✓ 日本', "'café ✓ 日本'"],
    ['emoji 😀', "'emoji 😀'"],
    ['', "''"],
  ])('repr(%j)', (input, expected) => {
    expect(pyStr(input)).toBe(expected);
  });
});

describe('pyNumber and pyRepr', () => {
  it.each([
    [0, '0'],
    [42, '42'],
    [-3, '-3'],
    [0.5, '0.5'],
    [1.25, '1.25'],
    [0.0001, '0.0001'],
    [0.00001, '1e-05'],
    [1.5e-7, '1.5e-07'],
  ])('repr(%d)', (input, expected) => {
    expect(pyNumber(input)).toBe(expected);
  });

  it('writes booleans and None the Python way', () => {
    expect([pyRepr(true), pyRepr(false), pyRepr(null), pyRepr('x')]).toEqual(['True', 'False', 'None', "'x'"]);
  });
});

describe('pyFixed', () => {
  it.each([
    [2.5, 0, '2'],
    [3.5, 0, '4'],
    [-2.5, 0, '-2'],
    [-0.5, 0, '-0'],
    [10.4, 0, '10'],
    [0.125, 2, '0.12'],
    [1.23456, 2, '1.23'],
    [640, 1, '640.0'],
  ])('format(%d, ".%if")', (x, decimals, expected) => {
    expect(pyFixed(x, decimals)).toBe(expected);
  });
});
