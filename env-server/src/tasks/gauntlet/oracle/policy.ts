import type { OracleView } from '../../task.js';
import { CODE_PATTERN } from '../codes.js';
import { act } from '../../oracle-helpers/act.js';
import { find, must, region, textOf } from '../../oracle-helpers/ax-query.js';
import { oracleFor } from '../challenges/index.js';
import type { Move } from './move.js';
import { readView, type StepView } from './view.js';

/**
 * The oracle policy for every Gauntlet page: observation in, one BrowserGym action out. It
 * reads only the AXTree text an agent gets, keeps no memory between calls, and so can take over
 * any state (a fresh step, a half-solved puzzle, a page reloaded mid-run).
 */
export function gauntletOracle(view: OracleView): string {
  const page = readView(view.axtree_txt);
  switch (page.kind) {
    case 'locked':
      return act.click(must(find(page.nodes, 'link', 'Go to step 1'), 'link "Go to step 1"'));
    case 'done':
    case 'empty':
      return act.noop(100);
    case 'step':
      return stepAction(page);
  }
}

/** The code, once known (revealed on the page or derived by the type's oracle), goes in the box and is submitted. */
export function stepAction(view: StepView): string {
  const unlock = unlockAction(view);
  if (unlock && !view.revealed) return unlock;
  const move: Move = view.revealed ? { code: view.revealed } : oracleFor(view.type)(view);
  if ('code' in move) {
    return view.codeBox.value === move.code
      ? act.click(view.submit)
      : act.chain(act.fill(view.codeBox, move.code), act.click(view.submit));
  }
  // A code caught in passing (the flashing one) may be gone by now: it is already in the box.
  const typed = view.codeBox.value ?? '';
  if (CODE_PATTERN.test(typed) && !view.wrongAlert) return act.click(view.submit);
  return move.action;
}

/** A locked puzzle (after a wrong move) says which word unlocks it: type it and press "Unlock". */
export function unlockAction(view: StepView): string | undefined {
  const lock = region(view.puzzle, 'region', 'Locked');
  if (!lock) return undefined;
  const word = must(/type "([^"]+)"/.exec(textOf(lock))?.[1], 'unlock word');
  const box = must(find(lock, 'textbox', 'Unlock word'), 'textbox "Unlock word"');
  return act.chain(act.fill(box, word), act.click(must(find(lock, 'button', 'Unlock'), 'button "Unlock"')));
}
