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

/** A half-known code in the code box: the known half, and `___` where the other half goes. */
const BLANK = '___';
const HALF = /^[A-Z0-9]{3}$/;

/**
 * Samples the flash box more often than a flash lasts. The code box is the expert's only memory
 * (it keeps none of its own): a tagged half, caught in either order, goes in as a half-blank code
 * (`AB1___` or `___2CD`); the other half, caught later, completes it. Only that shape is trusted as
 * a memory, and only the half it holds, so junk a wrong move left in the box (six characters, or
 * three) is never joined to a half: it is overwritten by the next tagged half.
 */
export const solveMutationObserver: ChallengeSolver = (view) => {
  const tag = must(/halves tagged "([^"]+)"/.exec(view.instructions)?.[1], 'tag');
  const flash = textOf(region(view.puzzle, 'region', 'Flash box') ?? []);
  const [, part, half] = new RegExp(`(?:^|[^A-Za-z])${tag}, part ([12]) of 2: ([A-Z0-9]{3})`).exec(flash) ?? [];
  const { first, second } = rememberedHalves(view.codeBox.value ?? '');
  if (part === '1' && second) return code(half + second);
  if (part === '2' && first) return code(first + half);
  if (part === '1' && first !== half) return action(act.fill(view.codeBox, half + BLANK));
  if (part === '2' && second !== half) return action(act.fill(view.codeBox, BLANK + half!));
  const windowMs = must(numberIn(view.instructions, /for (\d+) ms each/), 'flash length');
  // An observation takes time too: waiting half a flash still sees every flash at least once.
  return action(act.noop(Math.floor(windowMs / 2)));
};

/** The half the code box remembers, if it holds a half-blank code the expert writes. */
export function rememberedHalves(typed: string): { first?: string; second?: string } {
  const [a, b] = [typed.slice(0, 3), typed.slice(3)];
  if (typed.length !== 6) return {};
  if (HALF.test(a) && b === BLANK) return { first: a };
  if (a === BLANK && HALF.test(b)) return { second: b };
  return {};
}

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
