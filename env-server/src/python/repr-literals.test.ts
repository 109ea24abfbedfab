import { describe, expect, it } from 'vitest';
import { pyRepr } from './repr.js';
import type { Literal } from './literal.js';

// Expected texts were produced by CPython 3 `repr` on the same values.
describe('pyRepr matches Python repr', () => {
  it.each<[Literal, string]>([
    [42, '42'],
    [-7, '-7'],
    [42.7, '42.7'],
    [0.1, '0.1'],
    [1e-5, '1e-05'],
    [1.5e-5, '1.5e-05'],
    [-0.00012, '-0.00012'],
    [0.0001, '0.0001'],
    [1e-7, '1e-07'],
    [123456789.125, '123456789.125'],
    [1e22, '10000000000000000000000'],
    [-0, '-0.0'],
    [Infinity, 'inf'],
    [-Infinity, '-inf'],
    [NaN, 'nan'],
    [true, 'True'],
    [false, 'False'],
    [null, 'None'],
    ['abc', "'abc'"],
    ["it's", `"it's"`],
    ['say "hi"', `'say "hi"'`],
    [`both ' and "`, `'both \\' and "'`],
    ['a\\b', "'a\\\\b'"],
    ['tab\tnl\ncr\r', "'tab\\tnl\\ncr\\r'"],
    ['\x00\x1f\x7f', "'\\x00\\x1f\\x7f'"],
    ['\x85\xa0é', "'\\x85\\xa0é'"],
    ['\u200b\u2028', "'\\u200b\\u2028'"],
    ['😀', "'😀'"],
    ['\ud83d', "'\\ud83d'"],
    [' ', "' '"],
    ['a b', "'a b'"],
    [[1, 'a', null, true, false], "[1, 'a', None, True, False]"],
    [[], '[]'],
    [{}, '{}'],
    [{ a: 1, b: [2] }, "{'a': 1, 'b': [2]}"],
    [{ "it's": 'x' }, `{"it's": 'x'}`],
  ])('%j → %s', (value, expected) => {
    expect(pyRepr(value)).toBe(expected);
  });

  it('prints integral floats as ints, since a Literal cannot tell them apart', () => {
    expect(pyRepr(2.0)).toBe('2');
  });
});
