import { describe, expect, it } from 'vitest';
import { stepResult } from '../../test/fake-env.js';
import { renderObservation } from './render.js';
import { observationStateKey, stateText } from './state-key.js';

const page = { goal: 'Log in.', url: 'http://t/login', axtree: "[5] textbox 'Username'\n[6] button 'Login'" };

describe('observationStateKey', () => {
  it('is the rendered observation without its last-action section: the same page reached two ways has one key', () => {
    const first = renderObservation(stepResult(page));
    const after = renderObservation(stepResult({ ...page, error: 'no element 9' }), { lastAction: "click('9')" });
    expect(stateText(after)).toBe(
      "# Goal\nLog in.\n\n# Current page\nhttp://t/login\n\n# Accessibility tree\n[5] textbox 'Username'\n[6] button 'Login'",
    );
    expect(stateText(first)).toBe(stateText(after));
    expect(observationStateKey(first)).toBe(observationStateKey(after));
    expect(observationStateKey(first)).toMatch(/^[0-9a-f]{64}$/);
  });

  it('tells pages apart by goal, URL and tree (a typed value is state), and ignores trailing spaces', () => {
    const key = (o: Partial<typeof page>) => observationStateKey(renderObservation(stepResult({ ...page, ...o })));
    const base = key({});
    expect(key({ axtree: "[5] textbox 'Username' value='bob'\n[6] button 'Login'" })).not.toBe(base);
    expect(key({ url: 'http://t/home' })).not.toBe(base);
    expect(key({ goal: 'Log out.' })).not.toBe(base);
    expect(key({ axtree: "[5] textbox 'Username'  \n[6] button 'Login'\t" })).toBe(base);
  });

  it('keeps a text with no last-action section as it is', () => {
    expect(stateText('# Goal\ng\n\n# Accessibility tree\nt')).toBe('# Goal\ng\n\n# Accessibility tree\nt');
    // A last-action section at the very end (no tree after it) is removed too.
    expect(stateText('# Goal\ng\n\n# Last action\nnoop()\nError: x')).toBe('# Goal\ng');
  });
});
