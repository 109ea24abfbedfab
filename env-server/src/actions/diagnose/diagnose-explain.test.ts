import { describe, expect, it } from 'vitest';
import type { ElementFacts } from './diagnose-facts.js';
import { explain } from './diagnose-explain.js';

/** A visible, enabled, uncovered button: every case below changes one thing. */
const BUTTON: ElementFacts = {
  count: 1,
  tag: 'button',
  inputType: undefined,
  contentEditable: false,
  hidden: undefined,
  offscreenAt: undefined,
  disabled: undefined,
  readOnly: false,
  noPointerEvents: false,
  coveredBy: undefined,
  coverIsOwnLabel: false,
  coverInControlAround: false,
  options: undefined,
};
const facts = (changes: Partial<ElementFacts>): ElementFacts => ({ ...BUTTON, ...changes });

describe('explain', () => {
  it('finds nothing wrong with an actionable element', () => {
    expect(explain(BUTTON, { bid: '1', action: 'click' })).toBeUndefined();
  });

  it('reports duplicate bids as the agent-visible cause of a strict-mode failure', () => {
    expect(explain(facts({ count: 3 }), { bid: '1', action: 'click' })).toMatchObject({
      kind: 'duplicate',
      message: 'bid "1" matches 3 elements (duplicate bids on the page)',
      invalidRequest: true,
    });
  });

  it('checks only what the action needs', () => {
    const covered = facts({ coveredBy: 'div#modal' });
    expect(explain(covered, { bid: '1', action: 'click' })?.kind).toBe('covered');
    expect(explain(covered, { bid: '1', action: 'press' })).toBeUndefined();
    expect(explain(facts({ disabled: 'disabled' }), { bid: '1', action: 'hover' })).toBeUndefined();
  });

  it('reports the first cause a user would check: hidden before disabled before covered', () => {
    const all = facts({ hidden: 'display:none', disabled: 'disabled', coveredBy: 'div' });
    expect(explain(all, { bid: '1', action: 'click' })?.kind).toBe('hidden');
  });

  it('lets a force retry through only where it reaches the element as a user would', () => {
    const blocks = (changes: Partial<ElementFacts>, action: 'click' | 'select_option' | 'fill' = 'click') =>
      explain(facts(changes), { bid: '1', action, wanted: ['a'] })?.blocksForce;
    expect(blocks({ coveredBy: 'div#modal' })).toBe(true);
    expect(blocks({ coveredBy: 'label', coverIsOwnLabel: true })).toBe(false);
    expect(blocks({ noPointerEvents: true, coveredBy: 'button', coverInControlAround: true })).toBe(false);
    expect(
      blocks({ tag: 'select', hidden: 'display:none', options: [{ value: 'a', label: 'A' }] }, 'select_option'),
    ).toBe(false);
    expect(blocks({ tag: 'input', inputType: 'text', hidden: 'display:none' }, 'fill')).toBe(true);
  });

  it('hands a fill on a <select> back to select_option, and hints at the right action for other inputs', () => {
    expect(explain(facts({ tag: 'select' }), { bid: '2', action: 'fill' })?.kind).toBe('select-for-fill');
    expect(explain(facts({ tag: 'input', inputType: 'file' }), { bid: '2', action: 'fill' })?.message).toBe(
      'element with bid "2" is an <input type="file">, fill needs a text input; use upload_file',
    );
  });

  it('names an aria-disabled ancestor', () => {
    expect(
      explain(facts({ disabled: 'aria-disabled on ancestor div#menu' }), { bid: '4', action: 'click' })?.message,
    ).toBe('element with bid "4" is disabled (aria-disabled on ancestor div#menu)');
  });

  it('lists at most 20 options and says how many more there are', () => {
    const options = Array.from({ length: 25 }, (_, i) => ({ value: String(i), label: String(i) }));
    const message = explain(facts({ tag: 'select', options }), {
      bid: '6',
      action: 'select_option',
      wanted: ['x'],
    })?.message;
    expect(message).toBe(
      `element with bid "6" has no option "x"; available options: ${options
        .slice(0, 20)
        .map((o) => `"${o.label}"`)
        .join(', ')}, … (5 more)`,
    );
  });
});
