import { describe, expect, it } from 'vitest';
import { planRun } from '../../plan.js';
import { Rng } from '../../rng.js';
import { obfuscate } from './challenge.js';
import { deobfuscate } from './oracle.js';

// The oracle reads the rule from the page's wording; the page states it from the params. This
// round trip checks both sides agree for every rule on many codes.
describe('obfuscated: rules round-trip through the page wording', () => {
  it('undoes what the page obfuscated, from the stated rule', () => {
    const rng = new Rng(1);
    for (let seed = 0; seed < 300; seed++) {
      const { code, params } = planRun(seed, 'obfuscated').steps[0]!;
      const { rule, text } = params as { rule: Parameters<typeof obfuscate>[1]; text: string };
      expect(deobfuscate(ruleWording(rule), text)).toBe(code);
      expect(deobfuscate(ruleWording(rule), obfuscate(code, rule, rng))).toBe(code);
    }
  });
});

function ruleWording(rule: Parameters<typeof obfuscate>[1]): string {
  switch (rule.kind) {
    case 'reverse':
      return 'Rule: the code is written backwards.';
    case 'every_other':
      return 'Rule: read every second character, starting with the first.';
    case 'strip_noise':
      return 'Rule: delete every lower-case letter and symbol; the six characters left are the code.';
    case 'positions':
      return `Rule: take the characters at positions ${rule.positions.join(', ')} (counting from 1), in that order.`;
  }
}
