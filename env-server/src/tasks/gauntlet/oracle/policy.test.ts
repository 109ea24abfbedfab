import { describe, expect, it } from 'vitest';
import type { OracleView } from '../../task.js';
import { rejectedCandidates } from './decoys.js';
import { gauntletOracle } from './policy.js';
import { readView } from './view.js';

/** A step page as the observer prints it, with `puzzle` lines inside the Puzzle region. */
function stepPage(
  opts: { box?: string; revealed?: string; alert?: boolean; puzzle?: string[]; instructions?: string } = {},
): OracleView {
  const lines = [
    `RootWebArea 'The Gauntlet — step 2 of 30', focused`,
    `\t[6] main ''`,
    `\t\t[7] heading 'Step 2 of 30: Checkpoint Quiet Fern'`,
    `\t\t[8] region 'Instructions'`,
    `\t\t\tStaticText ${JSON.stringify(opts.instructions ?? 'Press "Press" while the page clock below reads between 3.0 s and 4.5 s.').replace(/^"|"$/g, "'")}`,
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

describe('gauntletOracle', () => {
  it('enters and submits a revealed code in one multi-action, or just submits once it is typed', () => {
    expect(gauntletOracle(stepPage({ revealed: 'K3J9QX' }))).toBe(`fill('12', 'K3J9QX')\nclick('13')`);
    expect(gauntletOracle(stepPage({ revealed: 'K3J9QX', box: 'K3J9QX' }))).toBe(`click('13')`);
  });

  it('recognises the puzzle from its instructions and asks that oracle when nothing is revealed', () => {
    const view = stepPage({
      instructions:
        'Press "Press" while the page clock below reads between 3.0 s and 4.5 s. An earlier or later press locks the puzzle; "Restart clock" sets the clock back to 0.',
      puzzle: [
        `[39] paragraph 'Page clock'`,
        `\tStaticText 'Page clock: 1.0 s.'`,
        `[40] button 'Press'`,
        `[41] button 'Restart clock'`,
      ],
    });
    // Timed on the page's clock in one multi-action (no stale reading in between), aimed just inside the window.
    expect(gauntletOracle(view)).toBe(`click('41')\nnoop(3100)\nclick('40')`);
  });

  it('times the sliding button from a restart and the audio pause from a fresh play', () => {
    const slide = stepPage({
      instructions:
        'Click "Catch Otter" while its position is between x = 120 and x = 200 px. It slides right at 40 px/s and wraps from 500 back to 0; "Restart slide" puts it back at x = 0. A click outside that zone, or on "Catch Heron", locks the puzzle.',
      puzzle: [
        `[50] button 'Catch Heron'`,
        `[51] button 'Catch Otter'`,
        `[52] paragraph 'Button position'`,
        `\tStaticText 'Button position: x = 130 px.'`,
        `[53] button 'Restart slide'`,
      ],
    });
    expect(gauntletOracle(slide)).toBe(`click('53')\nnoop(3100)\nclick('51')`);
    const clip = stepPage({
      instructions:
        'Press "Play clip", then press "Pause" while the clip position reads between 2.0 s and 3.2 s. Pausing anywhere else locks the puzzle; "Play clip" always starts from 0.',
      puzzle: [
        `[60] button 'Play clip'`,
        `[61] button 'Pause'`,
        `[62] paragraph 'Clip position'`,
        `\tStaticText 'Clip position: 2.5 s (playing).'`,
      ],
    });
    expect(gauntletOracle(clip)).toBe(`click('60')\nnoop(2300)\nclick('61')`);
  });

  it('submits a code caught in passing (already typed) unless it was just rejected', () => {
    const flashing = {
      instructions:
        'Half codes flash in the box below, one at a time, for 400 ms each. The code is the two halves tagged "Amber": part 1 then part 2.',
      puzzle: [`[17] region 'Flash box'`],
    };
    expect(gauntletOracle(stepPage({ ...flashing, box: 'AB12CD' }))).toBe(`click('13')`);
    expect(gauntletOracle(stepPage({ ...flashing, box: 'AB12CD', alert: true }))).toBe('noop(200)');
  });

  it('remembers a tagged half in the code box as a half-blank code, in either order, and joins the other to it', () => {
    const flashing = (box: string | undefined, shown: string, alert = false) =>
      gauntletOracle(
        stepPage({
          instructions:
            'Half codes flash in the box below, one at a time, for 400 ms each. The code is the two halves tagged "Amber": part 1 then part 2.',
          box,
          alert,
          puzzle: [`[17] region 'Flash box'`, `\t[18] status ''`, `\t\tStaticText '${shown}'`],
        }),
      );
    expect(flashing(undefined, 'Amber, part 2 of 2: 2CD')).toBe(`fill('12', '___2CD')`);
    expect(flashing(undefined, 'Amber, part 1 of 2: AB1')).toBe(`fill('12', 'AB1___')`);
    expect(flashing('AB1___', 'Amber, part 2 of 2: 2CD')).toBe(`fill('12', 'AB12CD')\nclick('13')`);
    expect(flashing('___2CD', 'Amber, part 1 of 2: AB1')).toBe(`fill('12', 'AB12CD')\nclick('13')`);
    expect(flashing('AB1___', 'Amber, part 1 of 2: AB1')).toBe('noop(200)');
    expect(flashing('AB1___', 'Cedar, part 2 of 2: ZZZ')).toBe('noop(200)');
    // A decoy tag that ends in the tag's letters is not the tag.
    expect(flashing('AB1___', 'Bamber, part 2 of 2: ZZZ')).toBe('noop(200)');
  });

  it('never takes junk a wrong move left in the code box for a remembered half', () => {
    const flashing = (box: string, shown: string, alert = false) =>
      gauntletOracle(
        stepPage({
          instructions:
            'Half codes flash in the box below, one at a time, for 400 ms each. The code is the two halves tagged "Amber": part 1 then part 2.',
          box,
          alert,
          puzzle: [`[17] region 'Flash box'`, `\t[18] status ''`, `\t\tStaticText '${shown}'`],
        }),
      );
    // Three code characters (a decoy half, say) are not a memory: the tagged half replaces them.
    expect(flashing('XY9', 'Amber, part 2 of 2: 2CD')).toBe(`fill('12', '___2CD')`);
    // A rejected six-character code neither: the oracle starts its memory over.
    expect(flashing('Q7W8E9', 'Amber, part 2 of 2: 2CD', true)).toBe(`fill('12', '___2CD')`);
    expect(flashing('Q7W8E9', 'Amber, part 1 of 2: AB1', true)).toBe(`fill('12', 'AB1___')`);
  });

  it('evaluates the printed style sheet to find the one drawn character per column', () => {
    const row = (bid: number, layer: string, chars: string) => [
      `[${bid}] row ''`,
      `\t[${bid + 1}] rowheader '${layer}'`,
      ...[...chars].map((c, i) => `\t[${bid + 2 + i}] cell '${c}'`),
    ];
    const rules = [
      '.layers { background: #f6f6ff; }',
      '.layers td { color: #1a1a2e; opacity: 0; font-size: 20px; }',
      // Column 1: amber shown plainly; fern made "visible" but in the background colour.
      '.layers .amber .c1 { opacity: 1; }',
      '.layers .fern .c1 { opacity: 1; color: #f6f6ff; }',
      // Column 2: fern shown with font size 0 and restored later; amber shown and undone later.
      '.layers .fern .c2 { opacity: 1; font-size: 0; }',
      '.layers .amber .c2 { opacity: 1; }',
      // Columns 3 to 6 alternate layers plainly.
      '.layers .fern .c3 { opacity: 1; }',
      '.layers .amber .c4 { opacity: 1; }',
      '.layers .fern .c5 { opacity: 1; }',
      '.layers .amber .c6 { opacity: 1; color: #f6f6ff; }',
      '.layers .amber .c2 { opacity: 0; }',
      '.layers .fern .c2 { font-size: 20px; }',
      '.layers .amber .c6 { color: #1a1a2e; }',
    ];
    const view = stepPage({
      instructions:
        '2 layers of characters share the grid below, but CSS draws only one character in each column. The style sheet is printed under the grid in cascade order.',
      puzzle: [
        `[18] table ''`,
        `\t[20] row ''`,
        ...['layer', 'c1', 'c2', 'c3', 'c4', 'c5', 'c6'].map((h, i) => `\t\t[${21 + i}] columnheader '${h}'`),
        ...row(30, 'amber', 'K9X2MQ').map((l) => `\t${l}`),
        ...row(40, 'fern', 'P3J7B4').map((l) => `\t${l}`),
        `[53] region 'Style sheet'`,
        ...rules.map((r) => `\tStaticText '${r}'`),
      ],
    });
    // c1 amber K, c2 fern 3, c3 fern J, c4 amber 2, c5 fern B, c6 amber Q.
    expect(gauntletOracle(view)).toBe(`fill('12', 'K3J2BQ')\nclick('13')`);
    // Preference data rejects a row read straight across, as if every cell were drawn.
    const page = readView(view.axtree_txt);
    if (page.kind !== 'step') throw new Error('not a step page');
    expect(rejectedCandidates(page).actions).toEqual(
      expect.arrayContaining([`fill('12', 'K9X2MQ')\nclick('13')`, `fill('12', 'P3J7B4')\nclick('13')`]),
    );
  });

  it('refuses a style sheet that leaves a column with no drawn cell', () => {
    const view = stepPage({
      instructions: '1 layers of characters share the grid below, but CSS draws only one character in each column.',
      puzzle: [
        `[18] table ''`,
        `\t[30] row ''`,
        `\t\t[31] rowheader 'amber'`,
        ...[...'K9X2MQ'].map((c, i) => `\t\t[${32 + i}] cell '${c}'`),
        `[53] region 'Style sheet'`,
        `\tStaticText '.layers td { opacity: 0; }'`,
      ],
    });
    expect(() => gauntletOracle(view)).toThrow(/column c1 has 0 drawn cells/);
  });

  it('unlocks a locked puzzle with the word it states before anything else', () => {
    const view = stepPage({
      instructions: 'Press "Press" while the page clock below reads between 3.0 s and 4.5 s.',
      puzzle: [
        `[30] region 'Locked'`,
        `\t[31] paragraph ''`,
        `\t\tStaticText 'Locked: too early. To go on, type "meadow" in the "Unlock word" box and press "Unlock".'`,
        `\t[32] textbox 'Unlock word'`,
        `\t[33] button 'Unlock'`,
        `[40] button 'Press'`,
      ],
    });
    expect(gauntletOracle(view)).toBe(`fill('32', 'meadow')\nclick('33')`);
  });

  it('follows the locked page back to step 1', () => {
    const locked = [
      `RootWebArea 'The Gauntlet — Step 4 cannot be opened directly'`,
      `\t[3] heading 'Step 4 cannot be opened directly'`,
      `\t[5] link 'Go to step 1'`,
    ].join('\n');
    expect(gauntletOracle({ goal: '', axtree_txt: locked, pruned_html: '', url: '', focused_element_bid: '' })).toBe(
      `click('5')`,
    );
  });
});
