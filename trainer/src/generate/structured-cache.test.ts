import { describe, expect, it } from 'vitest';
import { ValidationError } from '@gauntlet/proto';
import type { ModelTokenizer } from '../model/tokenizer.js';
import { QueueFullError } from './errors.js';
import { constraintCompiler, type StructuredSpec } from './structured.js';

/**
 * The cache in front of the compiler, with a compile that only counts calls: specs that constrain
 * nothing (undefined) never reach the tokenizer, so none is needed here.
 */
function counting(fail: (regex: string) => Error | undefined = () => undefined) {
  const compiled: string[] = [];
  const compile = (spec: StructuredSpec) => {
    compiled.push(spec.regex!);
    const error = fail(spec.regex!);
    return error ? Promise.reject(error) : Promise.resolve(undefined);
  };
  const factory = constraintCompiler({} as ModelTokenizer, 8, compile, 2);
  return { compiled, ask: (regex: string) => factory({ regex }) };
}

describe('the structured-output cache', () => {
  it('keeps the most recently used specs: a hit moves a spec to the back of the eviction order', async () => {
    const { compiled, ask } = counting();
    for (const regex of ['a', 'b', 'a', 'c', 'a', 'b']) await ask(regex);
    // 'a' was used just before 'c' came in, so 'b' (least recently used) was dropped, not 'a'.
    expect(compiled).toEqual(['a', 'b', 'c', 'b']);
  });

  it("keeps the spec's own refusals (4xx), not a busy or stopped thread's", async () => {
    let busy = true;
    const { compiled, ask } = counting((regex) =>
      regex === 'bad'
        ? new ValidationError('bad is over budget')
        : regex === 'later' && busy
          ? new QueueFullError(1)
          : undefined,
    );
    await expect(ask('bad')).rejects.toThrow('bad is over budget');
    await expect(ask('bad')).rejects.toThrow('bad is over budget');
    await expect(ask('later')).rejects.toThrow(QueueFullError);
    busy = false;
    await expect(ask('later')).resolves.toBeUndefined();
    expect(compiled).toEqual(['bad', 'later', 'later']);
  });
});
