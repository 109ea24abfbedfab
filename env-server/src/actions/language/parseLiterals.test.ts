import { describe, expect, it } from 'vitest';
import { parseActions } from './parse.js';
import type { Literal } from '../types.js';

/** The single argument of `f(<source>)`, parsed in strict mode. */
function literal(source: string): Literal {
  const calls = parseActions(`f(${source})`, { strict: true });
  expect(calls).toHaveLength(1);
  expect(calls[0]?.args).toHaveLength(1);
  return calls[0]?.args[0] as Literal;
}

function syntaxMessage(source: string): string {
  try {
    parseActions(source, { strict: true });
  } catch (error) {
    return (error as { display: string }).display;
  }
  return 'parsed';
}

describe('string literals', () => {
  it.each<[string, string]>([
    [`'single'`, 'single'],
    [`"double"`, 'double'],
    [`''`, ''],
    [`""`, ''],
    [`'''triple 'single' \n line'''`, "triple 'single' \n line"],
    [`"""triple "double"\nline"""`, 'triple "double"\nline'],
    ['"""a\r\nb"""', 'a\nb'],
    [`''''''`, ''],
    [`'it\\'s'`, "it's"],
    [`"say \\"hi\\""`, 'say "hi"'],
    [`"it's"`, "it's"],
    [`'a\\nb\\tc\\\\d'`, 'a\nb\tc\\d'],
    [`'\\a\\b\\f\\r\\v'`, '\x07\b\f\r\v'],
    [`'\\x41\\x7e'`, 'A~'],
    [`'\\u00e9\\u4e2d'`, 'é中'],
    [`'\\U0001F600'`, '😀'],
    [`'\\101\\0\\7'`, 'A\0\x07'],
    [`'\\d\\w'`, '\\d\\w'],
    ["'line \\\ncontinued'", 'line continued'],
    [`r'C:\\path\\n'`, 'C:\\path\\n'],
    [`R"\\d+"`, '\\d+'],
    [`r'\\''`, "\\'"],
    [`r'''raw\\ntriple'''`, 'raw\\ntriple'],
    [`u'unicode'`, 'unicode'],
    [`U"unicode"`, 'unicode'],
    [`'a' 'b'`, 'ab'],
    [`'a' "b" '''c''' r'\\d'`, 'abc\\d'],
    ["'one'\n  'two'", 'onetwo'],
    [`'émoji 😀 中文'`, 'émoji 😀 中文'],
    [`'# not a comment'`, '# not a comment'],
  ])('%s', (source, expected) => {
    expect(literal(source)).toBe(expected);
  });
});

describe('number literals', () => {
  it.each<[string, number]>([
    ['0', 0],
    ['42', 42],
    ['-42', -42],
    ['+42', 42],
    ['1_000_000', 1000000],
    ['0x1F', 31],
    ['0XfF', 255],
    ['0x_ff', 255],
    ['0o17', 15],
    ['0b101', 5],
    ['-0x10', -16],
    ['000', 0],
    ['3.14', 3.14],
    ['-2.5', -2.5],
    ['.5', 0.5],
    ['5.', 5],
    ['-.5', -0.5],
    ['1e3', 1000],
    ['1E-3', 0.001],
    ['2.5e+2', 250],
    ['-1.5e-3', -0.0015],
    ['5.e1', 50],
    ['1_0.5_5', 10.55],
    ['0012.5', 12.5],
    ['1e999', Infinity],
  ])('%s', (source, expected) => {
    expect(literal(source)).toBe(expected);
  });

  it('keeps the sign of a negative float zero but not of a negative int zero', () => {
    expect(Object.is(literal('-0'), 0)).toBe(true);
    expect(Object.is(literal('-0.0'), -0)).toBe(true);
  });
});

describe('constants and containers', () => {
  it.each<[string, Literal]>([
    ['True', true],
    ['False', false],
    ['None', null],
    ['[]', []],
    ['[1, 2, 3]', [1, 2, 3]],
    ['[1, 2, 3,]', [1, 2, 3]],
    ["['a', [True, None], []]", ['a', [true, null], []]],
    ['()', []],
    ['(1,)', [1]],
    ['(1, 2)', [1, 2]],
    ['(1, 2,)', [1, 2]],
    ['(7)', 7],
    ["(('a'))", 'a'],
    ['((1,),)', [[1]]],
    ['{}', {}],
    ["{'a': 1}", { a: 1 }],
    ["{'a': 1, \"b\": [2, (3,)], 'c': {'d': None},}", { a: 1, b: [2, [3]], c: { d: null } }],
    ["{'k': 1, 'k': 2}", { k: 2 }],
    ["{'x' 'y': -1}", { xy: -1 }],
    ['[\n  1,  # one\n  2,\n]', [1, 2]],
  ])('%s', (source, expected) => {
    expect(literal(source)).toEqual(expected);
  });

  it('accepts 100 nested brackets and rejects the 101st', () => {
    expect(literal(`${'['.repeat(99)}(1,)${']'.repeat(99)}`)).toEqual(
      JSON.parse(`${'['.repeat(100)}1${']'.repeat(100)}`),
    );
    expect(syntaxMessage(`f(${'['.repeat(101)}`)).toBe(
      "SyntaxError: too many nested brackets at line 1, column 103: '['",
    );
  });

  it('stores a "__proto__" dict key as plain data', () => {
    const value = literal("{'__proto__': 1}") as Record<string, Literal>;
    expect(Object.keys(value)).toEqual(['__proto__']);
    expect(value['__proto__']).toBe(1);
  });
});

describe('rejected literals', () => {
  it.each<[string, string]>([
    ["f(b'x')", 'SyntaxError: bytes literals are not supported at line 1, column 3: "b\'x\')"'],
    [
      "f(f'{x}')",
      'SyntaxError: f-strings are not supported: arguments must be literals at line 1, column 3: "f\'{x}\')"',
    ],
    ["f('abc)", 'SyntaxError: unterminated string literal at line 1, column 3: "\'abc)"'],
    ["f('a\nb')", 'SyntaxError: unterminated string literal at line 1, column 3: "\'a"'],
    ["f('''abc)", "SyntaxError: unterminated triple-quoted string literal at line 1, column 3: \"'''abc)\""],
    ["f(r'\\')", 'SyntaxError: unterminated string literal at line 1, column 3: "r\'\\\\\')"'],
    ["f('\\x4')", 'SyntaxError: truncated \\xXX escape at line 1, column 4: "\\\\x4\')"'],
    ["f('\\u12')", 'SyntaxError: truncated \\uXXXX escape at line 1, column 4: "\\\\u12\')"'],
    [
      "f('\\U00110000')",
      'SyntaxError: illegal Unicode character in \\U escape at line 1, column 4: "\\\\U00110000\')"',
    ],
    [
      "f('\\N{DASH}')",
      'SyntaxError: named unicode escapes (\\N{...}) are not supported at line 1, column 4: "\\\\N{DASH}\')"',
    ],
    [
      'f(012)',
      "SyntaxError: leading zeros in decimal integer literals are not permitted; use an 0o prefix for octal integers at line 1, column 3: '012)'",
    ],
    ['f(1j)', "SyntaxError: complex numbers are not supported at line 1, column 3: '1j)'"],
    ['f(12abc)', "SyntaxError: invalid number literal at line 1, column 3: '12abc)'"],
    ['f(1_)', "SyntaxError: invalid number literal at line 1, column 3: '1_)'"],
    ['f(0x)', "SyntaxError: invalid number literal at line 1, column 3: '0x)'"],
    ['f(--1)', "SyntaxError: expected a number after '-' at line 1, column 4: '-1)'"],
    ["f(-'a')", "SyntaxError: expected a number after '-' at line 1, column 4: \"'a')\""],
    ['f(x)', "SyntaxError: expected a literal value, found the name x at line 1, column 3: 'x)'"],
    ['f(1 + 2)', "SyntaxError: expected ',' or ')' at line 1, column 5: '+ 2)'"],
    ['f(g(1))', "SyntaxError: expected a literal value, found the name g at line 1, column 3: 'g(1))'"],
    ['f({1: 2})', "SyntaxError: dict keys must be strings at line 1, column 4: '1: 2})'"],
    ["f({'a'})", "SyntaxError: expected ':' after a dict key at line 1, column 7: '})'"],
    ['f([1 2])', "SyntaxError: expected ',' or ']' at line 1, column 6: '2])'"],
    ['f((1 2))', "SyntaxError: expected ',' or ')' at line 1, column 6: '2))'"],
    ['f([,])', "SyntaxError: expected a literal value at line 1, column 4: ',])'"],
    ['f([1,', 'SyntaxError: expected a literal value at line 1, column 6: end of input'],
    ['f(*[1])', "SyntaxError: expected a literal value at line 1, column 3: '*[1])'"],
  ])('%s', (source, expected) => {
    expect(syntaxMessage(source)).toBe(expected);
  });
});
