import { describe, expect, it } from 'vitest';
import { ValidationError } from '../errors.js';
import { ResetRequest } from './requests.js';
import { parseOrThrow } from './validate.js';
import { MAX_NESTING_DEPTH, assertJsonTextDepth, assertValueDepth } from './depth.js';

const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

describe('nesting depth bounds', () => {
  it('accepts JSON text up to the bound and refuses one level more, ignoring brackets inside strings', () => {
    expect(() => assertJsonTextDepth(nested(MAX_NESTING_DEPTH))).not.toThrow();
    expect(() => assertJsonTextDepth(nested(MAX_NESTING_DEPTH + 1))).toThrow(ValidationError);
    expect(() => assertJsonTextDepth(`{"a":"${'['.repeat(1000)}\\"${'{'.repeat(1000)}"}`)).not.toThrow();
  });

  it('refuses 1,000,000 levels in one linear pass', () => {
    const started = performance.now();
    expect(() => assertJsonTextDepth(nested(1_000_000))).toThrow(/more than 64 levels deep/);
    expect(performance.now() - started).toBeLessThan(500);
  });

  it('checks decoded values iteratively, whatever their depth', () => {
    let value: unknown = 1;
    for (let i = 0; i < 100_000; i += 1) value = { x: value };
    expect(() => assertValueDepth(value)).toThrow(ValidationError);
    expect(() => assertValueDepth(JSON.parse(nested(MAX_NESTING_DEPTH)))).not.toThrow();
  });
});

describe('validation errors echo the input bounded', () => {
  it('a deep, wide or long invalid value is previewed, and the error serialises', () => {
    let deep: unknown = 'leaf';
    for (let i = 0; i < 5_000; i += 1) deep = [deep];
    for (const seed of [deep, Array.from({ length: 10_000 }, (_, i) => i), 'x'.repeat(1_000_000)]) {
      try {
        parseOrThrow(ResetRequest, { seed });
        expect.unreachable();
      } catch (error) {
        expect(error).toBeInstanceOf(ValidationError);
        expect(JSON.stringify((error as ValidationError).toWire()).length).toBeLessThan(2_000);
      }
    }
  });

  it('small inputs are echoed whole, as FastAPI does', () => {
    try {
      parseOrThrow(ResetRequest, { seed: { a: [1, 2] } });
      expect.unreachable();
    } catch (error) {
      expect((error as ValidationError).issues[0]?.input).toEqual({ a: [1, 2] });
    }
  });
});
