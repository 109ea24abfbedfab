import { act } from '../../../oracle-helpers/act.js';
import { must, numberIn, region, textOf } from '../../../oracle-helpers/ax-query.js';
import { action, code, type ChallengeOracle } from '../../oracle/move.js';

/** A half-known code in the code box: the known half, and `___` where the other half goes. */
const BLANK = '___';
const HALF = /^[A-Z0-9]{3}$/;

/**
 * Samples the flash box more often than a flash lasts. The code box is the oracle's only memory
 * (it keeps none of its own): a tagged half, caught in either order, goes in as a half-blank code
 * (`AB1___` or `___2CD`); the other half, caught later, completes it. Only that shape is trusted as
 * a memory, and only the half it holds, so junk a wrong move left in the box (six characters, or
 * three) is never joined to a half: it is overwritten by the next tagged half.
 */
export const solveMutationObserver: ChallengeOracle = (view) => {
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

/** The half the code box remembers, if it holds a half-blank code the oracle writes. */
export function rememberedHalves(typed: string): { first?: string; second?: string } {
  const [a, b] = [typed.slice(0, 3), typed.slice(3)];
  if (typed.length !== 6) return {};
  if (HALF.test(a) && b === BLANK) return { first: a };
  if (a === BLANK && HALF.test(b)) return { second: b };
  return {};
}
