import { OracleError } from '../../../oracle-helpers/action-text.js';
import { CODE_ALPHABET } from '../../codes.js';
import { must, numberIn, textOf } from '../../../oracle-helpers/ax-query.js';
import { code, type ChallengeOracle } from '../../oracle/move.js';

/** Reads the stated cipher from the instructions and decrypts the shown ciphertext. */
export const solveEncrypted: ChallengeOracle = (view) => {
  const text = textOf(view.puzzle);
  const ciphertext = must(/Ciphertext:\s*\n?(.+)/.exec(text)?.[1]?.trim(), 'ciphertext');
  return code(decrypt(view.instructions, ciphertext));
};

export function decrypt(instructions: string, ciphertext: string): string {
  const shift = numberIn(instructions, /shifted forward by (\d+) places/);
  if (shift !== undefined) {
    const n = CODE_ALPHABET.length;
    return [...ciphertext].map((c) => CODE_ALPHABET[(CODE_ALPHABET.indexOf(c) - shift + n * 2) % n]).join('');
  }
  if (/base64/.test(instructions)) return Buffer.from(ciphertext, 'base64').toString('ascii');
  const key = numberIn(instructions, /XORed with the key (\d+)/);
  if (key !== undefined)
    return ciphertext
      .split(/\s+/)
      .map((hex) => String.fromCharCode(parseInt(hex, 16) ^ key))
      .join('');
  throw new OracleError(`no known cipher in the instructions: ${instructions}`);
}
