import { CODE_ALPHABET } from '../../codes.js';
import { defineChallenge } from '../../challenge.js';
import type { Rng } from '../../rng.js';

type Rule =
  { kind: 'reverse' } | { kind: 'every_other' } | { kind: 'strip_noise' } | { kind: 'positions'; positions: number[] };

interface Params {
  rule: Rule;
  text: string;
}

const NOISE = 'abcdefghijklmnopqrstuvwxyz#*~-+=';

/** Hides the code in `text` by the rule; every result differs from the code (the plan checks). */
export function obfuscate(code: string, rule: Rule, rng: Rng): string {
  const filler = () => NOISE[rng.int(0, NOISE.length - 1)]!;
  switch (rule.kind) {
    case 'reverse':
      return [...code].reverse().join('');
    case 'every_other':
      return [...code].map((c) => c + CODE_ALPHABET[rng.int(0, CODE_ALPHABET.length - 1)]).join('');
    case 'strip_noise':
      return [...code].map((c) => Array.from({ length: rng.int(1, 2) }, filler).join('') + c).join('') + filler();
    case 'positions': {
      const out = Array.from({ length: 14 }, () => CODE_ALPHABET[rng.int(0, CODE_ALPHABET.length - 1)]!);
      rule.positions.forEach((p, i) => (out[p - 1] = code[i]!));
      return out.join('');
    }
  }
}

/** Derive the code from an obfuscated string by a stated rule. */
export const obfuscated = defineChallenge<Params>({
  type: 'obfuscated',
  title: 'Obfuscated',
  generate(rng, code) {
    const kind = rng.pick(['reverse', 'every_other', 'strip_noise', 'positions'] as const);
    const rule: Rule =
      kind === 'positions'
        ? {
            kind,
            positions: rng.sample(
              Array.from({ length: 14 }, (_, i) => i + 1),
              6,
            ),
          }
        : { kind };
    return { rule, text: obfuscate(code, rule, rng) };
  },
  render: (ctx) => {
    const { rule, text } = ctx.params;
    const how = {
      reverse: 'the code is written backwards',
      every_other: 'read every second character, starting with the first',
      strip_noise: 'delete every lower-case letter and symbol; the six characters left are the code',
      positions: `take the characters at positions ${rule.kind === 'positions' ? rule.positions.join(', ') : ''} (counting from 1), in that order`,
    }[rule.kind];
    ctx.instruct(`The code is hidden in the string below. Rule: ${how}.`);
    ctx.area.append(ctx.el('p', {}, 'Obfuscated: ', ctx.el('code', {}, text)));
  },
});
