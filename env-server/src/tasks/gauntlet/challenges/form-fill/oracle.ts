import { act } from '../../../oracle-helpers/act.js';
import { find, must, quotedValues } from '../../../oracle-helpers/ax-query.js';
import { action, type ChallengeOracle } from '../../oracle/move.js';

/**
 * Fills every field that differs from the instructions and ticks the box in one multi-action
 * (as an agent filling a form would), then submits once the form reads right.
 */
export const solveFormFill: ChallengeOracle = (view) => {
  const [fieldsPart, tail] = view.instructions.replace(/^Fill in the form: /, '').split('. Tick ');
  const [terms, submit] = quotedValues(must(tail, 'tick instruction'));
  const edits: string[] = [];
  for (const [, label, value] of must(fieldsPart, 'field list').matchAll(/([A-Za-z ]+) = "([^"]*)"/g)) {
    const name = label!.trim();
    const control = must(
      view.puzzle.find(
        (n) => n.bid !== undefined && n.name === name && ['textbox', 'spinbutton', 'combobox'].includes(n.role),
      ),
      `field "${name}"`,
    );
    const shown = control.role === 'spinbutton' ? (control.props.get('valuetext') ?? control.value) : control.value;
    if (shown === value) continue;
    const target = control as typeof control & { bid: string };
    edits.push(control.role === 'combobox' ? act.select(target, value!) : act.fill(target, value!));
  }
  const box = must(find(view.puzzle, 'checkbox', terms), `checkbox "${terms}"`);
  if (box.props.get('checked') !== 'true') edits.push(act.click(box));
  if (edits.length > 0) return action(act.chain(...edits));
  return action(act.click(must(find(view.puzzle, 'button', submit), `button "${submit}"`)));
};
