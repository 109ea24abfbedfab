import { CODE_ALPHABET } from '../../codes.js';
import { defineChallenge } from '../../challenge.js';

type Cipher = { kind: 'shift'; shift: number } | { kind: 'base64' } | { kind: 'xor'; key: number };

interface Params {
  cipher: Cipher;
  ciphertext: string;
}

/** The stated simple ciphers; decrypting is the puzzle, the page never shows the plain code. */
export function encrypt(code: string, cipher: Cipher): string {
  switch (cipher.kind) {
    case 'shift':
      return [...code]
        .map((c) => CODE_ALPHABET[(CODE_ALPHABET.indexOf(c) + cipher.shift) % CODE_ALPHABET.length])
        .join('');
    case 'base64':
      return Buffer.from(code, 'ascii').toString('base64');
    case 'xor':
      return [...code].map((c) => (c.charCodeAt(0) ^ cipher.key).toString(16).padStart(2, '0')).join(' ');
  }
}

/** Decrypt the code with a stated shift, base64 or XOR key. */
export const encrypted = defineChallenge<Params>({
  type: 'encrypted',
  title: 'Encrypted',
  generate(rng, code) {
    const kind = rng.pick(['shift', 'base64', 'xor'] as const);
    const cipher: Cipher =
      kind === 'shift' ? { kind, shift: rng.int(1, 35) } : kind === 'xor' ? { kind, key: rng.int(16, 127) } : { kind };
    return { cipher, ciphertext: encrypt(code, cipher) };
  },
  render: (ctx) => {
    const { cipher, ciphertext } = ctx.params;
    const how =
      cipher.kind === 'shift'
        ? `each character was shifted forward by ${cipher.shift} places in the alphabet "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789" (wrapping around)`
        : cipher.kind === 'base64'
          ? 'the code was encoded as base64 (ASCII)'
          : `each character's ASCII code was XORed with the key ${cipher.key} (0x${cipher.key.toString(16)}) and written as two hex digits`;
    ctx.instruct(`The code is encrypted: ${how}. Decrypt it and enter the 6-character result.`);
    ctx.area.append(ctx.el('p', {}, 'Ciphertext: ', ctx.el('code', {}, ciphertext)));
  },
});
