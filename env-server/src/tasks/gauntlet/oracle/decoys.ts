import type { ChallengeType } from '../categories.js';
import { CODE_ALPHABET } from '../codes.js';
import { act } from '../../oracle-helpers/act.js';
import { below, find, findAll, numberIn, quotedValues, region } from '../../oracle-helpers/ax-query.js';
import { oracleFor } from '../challenges/index.js';
import type { StepView } from './view.js';

/**
 * Plausible wrong moves, for preference data: what a careless agent would do in this state.
 * Each must fail verifiably (a wrong code, a puzzle mistake, or an action error); the DPO probe
 * checks that before keeping a pair.
 */
const DECOYS: Partial<Record<ChallengeType, (view: StepView) => string | undefined>> = {
  click_sequence: (v) => {
    const order = quotedValues(v.instructions.split('. ')[0]!);
    const next = order[numberIn(v.status, /Progress: (\d+) of/) ?? 0];
    const wrong = findAll(v.puzzle, 'button').find((b) => b.name !== next);
    return wrong && act.click(wrong);
  },
  timer: (v) => clickNamed(v, 'Press'),
  animated_button: (v) => {
    const decoy = quotedValues(v.instructions)[1];
    return decoy ? clickNamed(v, decoy) : undefined;
  },
  drag_and_drop: (v) => {
    const [zone, ...wanted] = quotedValues(v.instructions);
    const unwanted = findAll(region(v.puzzle, 'list', 'Items') ?? [], 'listitem').find((i) => !wanted.includes(i.name));
    const target = find(v.puzzle, 'region', `${zone} drop zone`);
    return unwanted && target && act.dragAndDrop(unwanted, target);
  },
  shadow_dom: (v) => {
    const press = quotedValues(v.instructions.split(' and press ')[1] ?? '')[0];
    const other = findAll(v.puzzle, 'button').find((b) => b.name !== press);
    return other && act.click(other);
  },
  iframe: (v) => {
    const press = /Press "([^"]+)" inside/.exec(v.instructions)?.[1];
    const other = findAll(v.puzzle, 'button').find((b) => b.name !== press);
    return other && act.click(other);
  },
  modal_decoy: (v) => {
    const closes = quotedValues(v.instructions).filter((q) => q !== '×')[1];
    const dialogs = v.puzzle.map((n, i) => [n, i] as const).filter(([n]) => n.role === 'dialog');
    const top = dialogs[dialogs.length - 1];
    const fake = top && findAll(below(v.puzzle, top[1]), 'button').find((b) => b.name !== closes);
    return fake && act.click(fake);
  },
  websocket: (v) => clickNamed(v, 'Request code'),
  form_fill: (v) => {
    const submit = quotedValues(v.instructions.split('. Tick ')[1] ?? '')[1];
    return submit ? clickNamed(v, submit) : undefined;
  },
};

/** Codes a careless reader takes from the page (not code-like strings on it: readings of it). */
const WRONG_READINGS: Partial<Record<ChallengeType, (view: StepView) => string[]>> = {
  // A row of the character grid read across, as if every cell in it were drawn.
  computed_style: (v) =>
    v.puzzle
      .map((n, i) => [n, i] as const)
      .filter(([n]) => n.role === 'row')
      .map(([, i]) =>
        findAll(below(v.puzzle, i), 'cell')
          .map((c) => c.name)
          .join(''),
      )
      .filter((row) => /^[A-Z0-9]{6}$/.test(row)),
};

/** Wrong moves worth trying in this state, most instructive first; `code` when the oracle would enter a code. */
export interface RejectedCandidates {
  kind: 'code' | 'puzzle';
  actions: string[];
}

export function rejectedCandidates(view: StepView): RejectedCandidates {
  const move = view.revealed ? { code: view.revealed } : oracleFor(view.type)(view);
  if ('code' in move) {
    const enter = (wrong: string) => act.chain(act.fill(view.codeBox, wrong), act.click(view.submit));
    const wrongCodes = [
      ...pageCodes(view).filter((c) => c !== move.code),
      ...(WRONG_READINGS[view.type]?.(view) ?? []),
      transposed(move.code),
      nearMiss(move.code),
    ];
    return { kind: 'code', actions: [...new Set(wrongCodes)].filter((c) => c !== move.code).map(enter) };
  }
  const actions = [DECOYS[view.type]?.(view), wrongElement(view, move.action)].filter(
    (a): a is string => a !== undefined,
  );
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

function clickNamed(view: StepView, name: string): string | undefined {
  const button = find(view.puzzle, 'button', name);
  return button && act.click(button);
}
