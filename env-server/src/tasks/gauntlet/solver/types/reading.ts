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

/**
 * Samples the flash box more often than a flash lasts. The first half of the tagged code goes
 * into the code box (the page is the only memory the expert keeps); with it there, the second
 * half completes the code.
 */
export const solveMutationObserver: ChallengeSolver = (view) => {
  const tag = must(/halves tagged "([^"]+)"/.exec(view.instructions)?.[1], 'tag');
  const flash = textOf(region(view.puzzle, 'region', 'Flash box') ?? []);
  const [, part, half] = new RegExp(`${tag}, part ([12]) of 2: ([A-Z0-9]{3})`).exec(flash) ?? [];
  const typed = view.codeBox.value ?? '';
  if (part === '1' && typed !== half) return action(act.fill(view.codeBox, half!));
  if (part === '2' && /^[A-Z0-9]{3}$/.test(typed)) return code(typed + half);
  const windowMs = must(numberIn(view.instructions, /for (\d+) ms each/), 'flash length');
  // An observation takes time too: waiting half a flash still sees every flash at least once.
  return action(act.noop(Math.floor(windowMs / 2)));
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
