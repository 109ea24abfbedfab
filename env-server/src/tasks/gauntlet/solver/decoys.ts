import { CODE_ALPHABET, type ChallengeType } from '../challenge-types.js';
import { act } from './act.js';
import { below, find, findAll, numberIn, quotedValues, region } from './ax.js';
import { SOLVERS } from './solvers.js';
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
  timer: (v) => (/Countdown running/.test(v.status) ? clickNamed(v, 'Reveal code') : undefined),
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
    const innermost = quotedValues(v.instructions.split(' and press ')[0]!).pop();
    const leaves = v.puzzle.map((n, i) => [n, i] as const).filter(([n]) => n.role === 'region' && n.name !== innermost);
    for (const [, i] of leaves) {
      const button = find(below(v.puzzle, i), 'button', 'Reveal code');
      if (button && !below(v.puzzle, i).some((n) => n.role === 'region')) return act.click(button);
    }
    return undefined;
  },
  iframe: (v) => {
    const decoy = /The frame "([^"]+)" is a decoy/.exec(v.instructions)?.[1];
    const index = v.puzzle.findIndex((n) => n.role === 'Iframe' && n.name === `Frame ${decoy}`);
    const button = index >= 0 ? find(below(v.puzzle, index), 'button', 'Reveal code') : undefined;
    return button && act.click(button);
  },
  modal_decoy: (v) => {
    const fake = findAll(v.puzzle, 'button', (name) => name.endsWith(')') && !name.startsWith('Close '))[0];
    return fake && act.click(fake);
  },
  websocket: (v) => (/Connection: Disconnected/.test(v.status) ? clickNamed(v, 'Request code') : undefined),
  form_fill: (v) => {
    const submit = quotedValues(v.instructions.split('. Tick ')[1] ?? '')[1];
    return submit ? clickNamed(v, submit) : undefined;
  },
};

/** Wrong moves worth trying in this state, most instructive first; `code` when the expert would enter a code. */
export interface RejectedCandidates {
  kind: 'code' | 'puzzle';
  actions: string[];
}

export function rejectedCandidates(view: StepView): RejectedCandidates {
  const move = view.revealed ? { code: view.revealed } : SOLVERS[view.type](view);
  if ('code' in move)
    return { kind: 'code', actions: [act.chain(act.fill(view.codeBox, nearMiss(move.code)), act.click(view.submit))] };
  const actions = [DECOYS[view.type]?.(view)].filter((a): a is string => a !== undefined);
  // Submitting before the puzzle is solved; not when a caught code is typed already (that would succeed).
  if (!view.codeBox.value) actions.push(act.click(view.submit));
  return { kind: 'puzzle', actions };
}

/** The code with its last character changed: the most tempting wrong code. */
export function nearMiss(code: string): string {
  const last = code[code.length - 1]!;
  return code.slice(0, -1) + CODE_ALPHABET[(CODE_ALPHABET.indexOf(last) + 1) % CODE_ALPHABET.length];
}

function clickNamed(view: StepView, name: string): string | undefined {
  const button = find(view.puzzle, 'button', name);
  return button && act.click(button);
}
