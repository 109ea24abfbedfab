import { OracleError } from '../../../oracle-helpers/action-text.js';
import { CODE_ALPHABET } from '../../codes.js';
import { must, textOf } from '../../../oracle-helpers/ax-query.js';
import { code, type ChallengeOracle } from '../../oracle/move.js';

/** Applies the stated rule to the obfuscated string. */
export const solveObfuscated: ChallengeOracle = (view) => {
  const text = must(/Obfuscated:\s*\n?(\S+)/.exec(textOf(view.puzzle))?.[1], 'obfuscated string');
  return code(deobfuscate(view.instructions, text));
};

/** The inverse of each rule the page can state, read from its wording. */
export function deobfuscate(rule: string, text: string): string {
  if (/written backwards/.test(rule)) return [...text].reverse().join('');
  if (/every second character/.test(rule)) return [...text].filter((_, i) => i % 2 === 0).join('');
  if (/delete every lower-case letter and symbol/.test(rule))
    return [...text].filter((c) => CODE_ALPHABET.includes(c)).join('');
  const positions = /at positions ([\d, ]+)/.exec(rule)?.[1];
  if (positions)
    return positions
      .split(',')
      .map((p) => text[Number(p.trim()) - 1])
      .join('');
  throw new OracleError(`no known obfuscation rule in: ${rule}`);
}
