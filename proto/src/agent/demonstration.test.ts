import { describe, expect, it } from 'vitest';
import {
  checkDemonstrationTemplate,
  DEFAULT_DEMONSTRATION_TEMPLATE,
  demonstrationText,
  withDemonstration,
} from './demonstration.js';

describe('a demonstration in an observation', () => {
  it('numbers the actions and puts them before the observation', () => {
    const text = demonstrationText(["fill('3', 'ann')", "click('7')"]);
    expect(withDemonstration('# Goal\nLog in', { text, template: DEFAULT_DEMONSTRATION_TEMPLATE })).toBe(
      [
        '# Demonstration',
        'This task was solved before. These actions solved it, in order:',
        "1. fill('3', 'ann')",
        "2. click('7')",
        '',
        '# Goal\nLog in',
      ].join('\n'),
    );
  });

  it('keeps $ signs literal and takes the placeholders in any order', () => {
    expect(withDemonstration('obs $1', { text: "click('$&')", template: '{observation}|{demonstration}' })).toBe(
      "obs $1|click('$&')",
    );
  });

  it('refuses a template without both placeholders, naming the one missing', () => {
    expect(() => checkDemonstrationTemplate('Demo: {demonstration}')).toThrow(/has no \{observation\}/);
    expect(checkDemonstrationTemplate(DEFAULT_DEMONSTRATION_TEMPLATE)).toBe(DEFAULT_DEMONSTRATION_TEMPLATE);
  });
});
