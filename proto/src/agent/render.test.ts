import { describe, expect, it } from 'vitest';
import { stepResult } from '../../test/fake-env.js';
import { DEFAULT_DEMONSTRATION_TEMPLATE, demonstrationText } from './demonstration.js';
import { renderObservation } from './render.js';

const tree = Array.from({ length: 50 }, (_, i) => `\t[${i}] button 'Button number ${i}'`).join('\n');

describe('renderObservation', () => {
  it("renders BrowserGym's sections: goal, page, last action with its error, accessibility tree", () => {
    const result = stepResult({
      goal: 'Click it.',
      url: 'http://t/x',
      axtree: "[5] button 'Go'",
      error: 'no element 9',
    });
    expect(renderObservation(result, { lastAction: "click('9')" })).toBe(
      "# Goal\nClick it.\n\n# Current page\nhttp://t/x\n\n# Last action\nclick('9')\nError: no element 9\n\n# Accessibility tree\n[5] button 'Go'",
    );
    expect(renderObservation(stepResult({ goal: 'g', url: 'u', axtree: 't' }))).toBe(
      '# Goal\ng\n\n# Current page\nu\n\n# Last action\n(none)\n\n# Accessibility tree\nt',
    );
  });

  it('within a character budget, cuts the tree (whole lines) and keeps the goal and the last error', () => {
    const goal = 'A long goal that must survive. '.repeat(5);
    const result = stepResult({ goal, axtree: tree, error: 'TimeoutError: the element is not visible' });
    const text = renderObservation(result, { lastAction: "click('3')", maxChars: 600 });
    expect(text.length).toBeLessThanOrEqual(600);
    expect(text).toContain(goal);
    expect(text).toContain('Error: TimeoutError: the element is not visible');
    const shown = text.split('# Accessibility tree\n')[1]!.split('\n');
    expect(shown.at(-1)).toMatch(/^… \(\d+ more lines of the tree not shown\)$/);
    expect(shown.slice(0, -1)).toEqual(tree.split('\n').slice(0, shown.length - 1));
    expect(Number(/\((\d+) more/.exec(shown.at(-1)!)![1]) + shown.length - 1).toBe(50);
  });

  it('leaves a text within budget untouched, and counts tokens with the given counter', () => {
    const result = stepResult({ axtree: tree });
    expect(renderObservation(result, { maxChars: 100_000 })).toBe(renderObservation(result));
    const words = (text: string) => text.split(/\s+/).filter(Boolean).length;
    const text = renderObservation(result, { maxTokens: 60, countTokens: words });
    expect(words(text)).toBeLessThanOrEqual(60);
    expect(text).toMatch(/more lines of the tree not shown/);
  });

  it('writes a demonstration before the goal of every observation, outside the budget', () => {
    const result = stepResult({ goal: 'g', url: 'u', axtree: tree });
    const demonstration = { text: demonstrationText(["click('7')"]), template: DEFAULT_DEMONSTRATION_TEMPLATE };
    const plain = renderObservation(result, { maxChars: 200 });
    expect(renderObservation(result, { maxChars: 200, demonstration })).toBe(
      `# Demonstration\nThis task was solved before. These actions solved it, in order:\n1. click('7')\n\n${plain}`,
    );
  });
});
