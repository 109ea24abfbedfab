import { act, type Actionable } from '../../src/tasks/oracle-helpers/act.js';
import { below } from '../../src/tasks/oracle-helpers/ax-query.js';
import { readView } from '../../src/tasks/gauntlet/oracle/view.js';
import { CODE_ALPHABET } from '../../src/tasks/gauntlet/codes.js';
import type { Rng } from '../../src/tasks/gauntlet/rng.js';

const CLICKABLE = new Set(['button', 'tab', 'checkbox', 'link', 'listitem', 'radio', 'menuitem', 'option']);

/**
 * The `pick`-th (modulo their count) of the moves on a Gauntlet step's puzzle other than the
 * oracle's: clicks on every control first (the moves that change state most), then junk typed
 * into fields, options picked at random, an early submit, hovers and a stray drag. Undefined
 * when the page is not a step.
 */
export function wrongAction(axtree: string, oracle: string, pick: number, rng: Rng): string | undefined {
  const view = readView(axtree);
  if (view.kind !== 'step') return undefined;
  const controls = view.puzzle.filter((n): n is Actionable => n.bid !== undefined && n.role !== 'StaticText');
  const junk = rng.string(CODE_ALPHABET, 6);
  const clicks = controls.filter((n) => CLICKABLE.has(n.role)).map((n) => () => act.click(n));
  const typing: (() => string)[] = [];
  for (const node of controls) {
    if (['textbox', 'spinbutton', 'searchbox'].includes(node.role)) typing.push(() => act.fill(node, junk));
    if (node.role === 'slider') typing.push(() => act.fill(node, String(rng.int(0, 20))));
    if (node.role === 'combobox') {
      const options = below(view.puzzle, view.puzzle.indexOf(node)).filter((o) => o.role === 'option');
      if (options.length) typing.push(() => act.select(node, rng.pick(options).name));
    }
  }
  const moves = [
    ...clicks,
    ...typing,
    () => act.chain(act.fill(view.codeBox, junk), act.click(view.submit)),
    ...controls.map((n) => () => act.hover(n)),
    ...(controls.length > 1 ? [() => act.dragAndDrop(rng.pick(controls), rng.pick(controls))] : []),
  ];
  const wrong = moves.map((move) => move()).filter((move) => move !== oracle);
  return wrong[pick % wrong.length];
}
