import { OracleError } from '../../../policy/action-text.js';
import { CODE_ALPHABET, CODE_PATTERN } from '../../challenge-types.js';
import { act } from '../act.js';
import { must, numberIn, region, textOf } from '../ax.js';
import { action, code, type ChallengeSolver } from '../move.js';

/** The rendered characters (the AXTree shows what CSS draws, not the markup's decoys). */
export const solveComputedStyle: ChallengeSolver = (view) => {
  const shown = textOf(must(region(view.puzzle, 'group', 'Code display'), 'group "Code display"'))
    .replace(/\s+/g, '')
    .toUpperCase();
  if (!CODE_PATTERN.test(shown))
    throw new OracleError(`the code display reads ${JSON.stringify(shown)}, not six code characters`);
  return code(shown);
};

/** Samples the flash box more often than the flash lasts, so a window is never missed. */
export const solveMutationObserver: ChallengeSolver = (view) => {
  const seen = textOf(region(view.puzzle, 'region', 'Flash box') ?? [])
    .split('\n')
    .find((t) => CODE_PATTERN.test(t));
  if (seen) return code(seen);
  const windowMs = must(numberIn(view.instructions, /for (\d+) ms/), 'flash length');
  return action(act.noop(Math.floor(windowMs / 3)));
};

/** Applies the stated rule to the obfuscated string. */
export const solveObfuscated: ChallengeSolver = (view) => {
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
