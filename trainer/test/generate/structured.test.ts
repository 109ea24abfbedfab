import { afterAll, describe, expect, it } from 'vitest';
import { samplingParams } from '../../src/generate/sampling-params.js';
import { regexConstraintFactory } from '../../src/generate/structured.js';
import { createRng } from '../../src/model/random.js';
import { tinyEngine } from './engine-support.js';

const setup = tinyEngine({ seed: 11 });
afterAll(async () => (await setup).model.release());

/** Random regexes from a small grammar: literals, classes, alternation, bounded and unbounded repeats. */
function randomRegex(rng: ReturnType<typeof createRng>, depth = 0): string {
  const atoms = ['a', 'b', 'x', '[0-9]', '[a-f]', '\\d', ' ', '-', '[A-Z]', '\\.', 'ok'];
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rng.next() * xs.length)]!;
  const parts: string[] = [];
  const count = 1 + Math.floor(rng.next() * 3);
  for (let i = 0; i < count; i++) {
    let atom =
      depth < 2 && rng.next() < 0.3 ? `(${randomRegex(rng, depth + 1)}|${randomRegex(rng, depth + 1)})` : pick(atoms);
    const r = rng.next();
    if (r < 0.2) atom += '*';
    else if (r < 0.35) atom += '+';
    else if (r < 0.5) atom += `{${1 + Math.floor(rng.next() * 2)},${3 + Math.floor(rng.next() * 2)}}`;
    else if (r < 0.6) atom += '?';
    parts.push(atom);
  }
  return parts.join('');
}

describe('regex-constrained decoding', () => {
  it('every output fully matches its regex (40 random regexes × random sampling), within max_tokens', async () => {
    const { engine, base, tokenizer, config } = await setup;
    const factory = regexConstraintFactory(tokenizer, config.vocabSize);
    const rng = createRng(2024);
    const regexes = Array.from({ length: 40 }, () => randomRegex(rng));
    const results = await Promise.all(
      regexes.map((regex, i) =>
        engine.generate({
          prompt: [65 + (i % 20)],
          params: samplingParams({ temperature: 1.5, seed: i, maxTokens: 12 }),
          adapterFeeds: base,
          constraint: factory({ regex })!(),
        }),
      ),
    );
    results.forEach((r, i) => {
      expect(r.text, `regex ${regexes[i]}`).toMatch(new RegExp(`^(?:${regexes[i]})$`));
      expect(r.tokenIds.length).toBeLessThanOrEqual(12);
    });
  });

  it('choice picks exactly one of the options; bad or unsupported specs are refused with a message', async () => {
    const { engine, base, tokenizer, config } = await setup;
    const factory = regexConstraintFactory(tokenizer, config.vocabSize);
    const choices = ['yes', 'no', 'maybe (later)'];
    for (let seed = 0; seed < 6; seed++) {
      const r = await engine.generate({
        prompt: [1, 2],
        params: samplingParams({ temperature: 2, seed, maxTokens: 20 }),
        adapterFeeds: base,
        constraint: factory({ choice: choices })!(),
      });
      expect(choices).toContain(r.text);
      expect(r.finishReason).toBe('stop');
    }
    expect(() => factory({ regex: '(' })).toThrow(/not supported/);
    expect(() => factory({ regex: 'a', json: {} } as never)).toThrow(/json/);
    expect(factory({})).toBeUndefined();
  });
});
