// Wrong moves for preference data: each type's own decoy and misreadings (its folder's `decoy`
// and `misreading`), plus the ones every puzzle offers (other codes on the page, near misses,
// another button, submitting too early).
import { CODE_ALPHABET } from '../codes.js';
import { act } from '../../oracle-helpers/act.js';
import { findAll } from '../../oracle-helpers/ax-query.js';
import { challengeTypeSpec } from '../challenges/index.js';
import type { StepView } from './view.js';

/** Wrong moves worth trying in this state, most instructive first; `code` when the oracle would enter a code. */
export interface RejectedCandidates {
  kind: 'code' | 'puzzle';
  actions: string[];
}

export function rejectedCandidates(view: StepView): RejectedCandidates {
  const spec = challengeTypeSpec(view.type);
  const move = view.revealed ? { code: view.revealed } : spec.oracle(view);
  if ('code' in move) {
    const enter = (wrong: string) => act.chain(act.fill(view.codeBox, wrong), act.click(view.submit));
    const wrongCodes = [
      ...pageCodes(view).filter((c) => c !== move.code),
      ...(spec.misreading?.(view) ?? []),
      transposed(move.code),
      nearMiss(move.code),
    ];
    return { kind: 'code', actions: [...new Set(wrongCodes)].filter((c) => c !== move.code).map(enter) };
  }
  const actions = [spec.decoy?.(view), wrongElement(view, move.action)].filter((a): a is string => a !== undefined);
  // Submitting before the puzzle is solved; not when a caught code is typed already (that would succeed).
  if (!view.codeBox.value) actions.push(act.click(view.submit));
  return { kind: 'puzzle', actions };
}

/** The code with its last character changed: the most tempting wrong code. */
export function nearMiss(code: string): string {
  const last = code[code.length - 1]!;
  return code.slice(0, -1) + CODE_ALPHABET[(CODE_ALPHABET.indexOf(last) + 1) % CODE_ALPHABET.length];
}

/** The code with two neighbouring characters swapped (the first pair that differs). */
export function transposed(code: string): string {
  const chars = [...code];
  const i = chars.findIndex((c, k) => k + 1 < chars.length && c !== chars[k + 1]);
  if (i < 0) return nearMiss(code);
  [chars[i], chars[i + 1]] = [chars[i + 1]!, chars[i]!];
  return chars.join('');
}

/** Code-like strings the puzzle shows (decoy codes in popups, stored entries, flashing text). */
function pageCodes(view: StepView): string[] {
  const words = view.puzzle.flatMap((n) => n.name.split(/[^A-Z0-9]+/));
  return [...new Set(words.filter((w) => /^[A-Z0-9]{6}$/.test(w) && /[A-Z]/.test(w) && /\d/.test(w)))];
}

/** A click on another of the puzzle's buttons than the one the oracle would press. */
function wrongElement(view: StepView, chosen: string): string | undefined {
  const other = findAll(view.puzzle, 'button').find((b) => !chosen.includes(`'${b.bid}'`));
  return other && act.click(other);
}
