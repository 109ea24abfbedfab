import { describe, expect, it } from 'vitest';
import {
  checkDemonstrationTemplate,
  DEFAULT_DEMONSTRATION_TEMPLATE,
  demonstratedActions,
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

  it('gives each action the element it acted on, as the observation before it showed it', () => {
    const tree = (lines: string) => `# Goal\nLog in\n\n# Accessibility tree\n${lines}`;
    const turns = [
      { role: 'system', content: 'You act in a browser. [3] is no element.' },
      { role: 'user', content: tree("[2] form ''\n\t[3] textbox 'Username'\n\t[30] textbox 'Password'") },
      { role: 'assistant', content: "fill('3', 'ann')" },
      { role: 'user', content: tree("[3] textbox 'Username', value='ann'\n[7] button 'Log in', focused") },
      { role: 'assistant', content: 'click("7")' },
      { role: 'user', content: tree("[9] link 'Next'") },
      { role: 'assistant', content: 'scroll(0, 200)' },
      { role: 'assistant', content: "click('12')" },
    ];
    expect(demonstratedActions(turns)).toEqual([
      "fill('3', 'ann') on textbox 'Username'",
      'click("7") on button \'Log in\', focused',
      'scroll(0, 200)',
      "click('12')",
    ]);
  });

  it('shortens a long element line and leaves a multi-line action as written', () => {
    const long = `[5] StaticText '${'word '.repeat(40)}'`;
    const [one, two] = demonstratedActions([
      { role: 'user', content: long },
      { role: 'assistant', content: "click('5')" },
      { role: 'assistant', content: "click('5')\nclick('5')" },
    ]);
    expect(one).toMatch(/^click\('5'\) on StaticText 'word word .*…$/);
    expect(one!.length).toBe("click('5') on ".length + 80);
    expect(two).toBe("click('5')\nclick('5')");
  });
});
