import { describe, expect, it } from 'vitest';
import { planRun } from '../../plan.js';
import { encrypt } from './challenge.js';
import { decrypt } from './oracle.js';

// The oracle reads the cipher from the page's wording; the page states it from the params. This
// round trip checks both sides agree for every cipher on many codes.
describe('encrypted: ciphers round-trip through the page wording', () => {
  it('decrypts what the page encrypted, from the stated cipher', () => {
    for (let seed = 0; seed < 300; seed++) {
      const { code, params } = planRun(seed, 'encrypted').steps[0]!;
      const { cipher, ciphertext } = params as { cipher: Parameters<typeof encrypt>[1]; ciphertext: string };
      expect(encrypt(code, cipher)).toBe(ciphertext);
      expect(decrypt(wording(cipher), ciphertext)).toBe(code);
    }
  });
});

function wording(cipher: Parameters<typeof encrypt>[1]): string {
  if (cipher.kind === 'shift') return `each character was shifted forward by ${cipher.shift} places in the alphabet`;
  if (cipher.kind === 'xor')
    return `each character's ASCII code was XORed with the key ${cipher.key} (0x${cipher.key.toString(16)})`;
  return 'the code was encoded as base64 (ASCII)';
}
