import { describe, expect, it } from 'vitest';
import type { OracleView } from '../../task.js';
import { gauntletPolicy } from './policy.js';

/** A step page as the observer prints it, with `puzzle` lines inside the Puzzle region. */
function stepPage(
  type: string,
  opts: { box?: string; revealed?: string; alert?: boolean; puzzle?: string[]; instructions?: string } = {},
): OracleView {
  const lines = [
    `RootWebArea 'The Gauntlet — step 2 of 30', focused`,
    `\t[6] main ''`,
    `\t\t[7] heading 'Step 2 of 30: Some title (${type})'`,
    `\t\t[8] region 'Instructions'`,
    `\t\t\tStaticText ${JSON.stringify(opts.instructions ?? 'Do the thing.').replace(/^"|"$/g, "'")}`,
    ...(opts.revealed
      ? [
          `\t\t[30] region 'Revealed code'`,
          `\t\t\tStaticText 'Code:'`,
          `\t\t\t[31] status ''`,
          `\t\t\t\tStaticText '${opts.revealed}'`,
        ]
      : []),
    `\t\t[11] form 'Code entry'`,
    `\t\t\t[12] textbox 'Code'${opts.box ? ` value='${opts.box}'` : ''}`,
    `\t\t\t[13] button 'Submit code'`,
    ...(opts.alert ? [`\t\t[19] alert '', live='assertive'`, `\t\t\tStaticText 'wrong'`] : []),
    `\t\t[15] status 'Puzzle status'`,
    `\t\t[16] region 'Puzzle'`,
    ...(opts.puzzle ?? []).map((l) => `\t\t\t${l}`),
  ];
  return { goal: '', axtree_txt: lines.join('\n'), pruned_html: '', url: '', focused_element_bid: '' };
}

describe('gauntletPolicy', () => {
  it('enters and submits a revealed code in one multi-action, or just submits once it is typed', () => {
    expect(gauntletPolicy(stepPage('timer', { revealed: 'K3J9QX' }))).toBe(`fill('12', 'K3J9QX')\nclick('13')`);
    expect(gauntletPolicy(stepPage('timer', { revealed: 'K3J9QX', box: 'K3J9QX' }))).toBe(`click('13')`);
  });

  it('asks the type solver when nothing is revealed', () => {
    const view = stepPage('timer', {
      instructions: 'The code unlocks 250 ms after the countdown starts.',
      puzzle: [`[40] button 'Reveal code'`],
    });
    expect(gauntletPolicy(view)).toBe('noop(280)');
  });

  it('submits a code caught in passing (already typed) unless it was just rejected', () => {
    const flashing = {
      instructions: 'The code flashes in the box below for 200 ms',
      puzzle: [`[17] region 'Flash box'`],
    };
    expect(gauntletPolicy(stepPage('mutation_observer', { ...flashing, box: 'AB12CD' }))).toBe(`click('13')`);
    expect(gauntletPolicy(stepPage('mutation_observer', { ...flashing, box: 'AB12CD', alert: true }))).toBe('noop(66)');
  });

  it('follows the locked page back to step 1', () => {
    const locked = [
      `RootWebArea 'The Gauntlet — Step 4 cannot be opened directly'`,
      `\t[3] heading 'Step 4 cannot be opened directly'`,
      `\t[5] link 'Go to step 1'`,
    ].join('\n');
    expect(gauntletPolicy({ goal: '', axtree_txt: locked, pruned_html: '', url: '', focused_element_bid: '' })).toBe(
      `click('5')`,
    );
  });
});
