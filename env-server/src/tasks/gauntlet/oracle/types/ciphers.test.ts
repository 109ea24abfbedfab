import { describe, expect, it } from 'vitest';
import { encrypt } from '../../challenges/encrypted.js';
import { obfuscate } from '../../challenges/obfuscated.js';
import { CHALLENGE_TYPES } from '../../challenge-types.js';
import { challengeFor } from '../../challenges/index.js';
import { planRun } from '../../plan.js';
import { Rng } from '../../rng.js';
import { decrypt } from './encrypted.js';
import { deobfuscate } from './reading.js';

// The oracle reads the rule from the page's wording; the page states it from the params. These
// round trips check both sides agree for every rule on many codes.
describe('ciphers and obfuscation rules round-trip through the page wording', () => {
  it('encrypted', () => {
    for (let seed = 0; seed < 300; seed++) {
      const { code, params } = planRun(seed, 'encrypted').steps[0]!;
      const { cipher, ciphertext } = params as { cipher: Parameters<typeof encrypt>[1]; ciphertext: string };
      expect(encrypt(code, cipher)).toBe(ciphertext);
      expect(decrypt(wording(cipher), ciphertext)).toBe(code);
    }
  });

  it('obfuscated', () => {
    const rng = new Rng(1);
    for (let seed = 0; seed < 300; seed++) {
      const { code, params } = planRun(seed, 'obfuscated').steps[0]!;
      const { rule, text } = params as { rule: Parameters<typeof obfuscate>[1]; text: string };
      expect(deobfuscate(ruleWording(rule), text)).toBe(code);
      expect(deobfuscate(ruleWording(rule), obfuscate(code, rule, rng))).toBe(code);
    }
  });

  it('every challenge has page code written as an expression', () => {
    for (const type of CHALLENGE_TYPES) expect(challengeFor(type).render.toString()).toMatch(/^\(?ctx\)? =>/);
  });
});

function wording(cipher: Parameters<typeof encrypt>[1]): string {
  if (cipher.kind === 'shift') return `each character was shifted forward by ${cipher.shift} places in the alphabet`;
  if (cipher.kind === 'xor')
    return `each character's ASCII code was XORed with the key ${cipher.key} (0x${cipher.key.toString(16)})`;
  return 'the code was encoded as base64 (ASCII)';
}

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
