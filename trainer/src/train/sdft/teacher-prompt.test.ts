import { describe, expect, test } from 'vitest';
import { checkDemonstrationTemplate, DEFAULT_DEMONSTRATION_TEMPLATE, demonstrationText } from '@gauntlet/proto/agent';
import { teacherMessages } from './teacher-prompt.js';

const state = [
  { role: 'system', content: 'You act in a browser.' },
  { role: 'user', content: '# Goal\nLog in' },
  { role: 'assistant', content: "fill('3', 'ann')" },
  { role: 'user', content: '# Goal\nLog in\n\n# Current page\n/login' },
];

describe('the teacher prompt', () => {
  test('puts the demonstration before the goal of the state being answered, and only there', () => {
    const demo = demonstrationText(["fill('3', 'ann')", "click('7')"]);
    const teacher = teacherMessages(state, demo, DEFAULT_DEMONSTRATION_TEMPLATE);
    expect(teacher.slice(0, 3)).toEqual(state.slice(0, 3));
    expect(teacher[3]!.content).toBe(
      [
        '# Demonstration',
        'This task was solved before. These actions solved it, in order:',
        "1. fill('3', 'ann')",
        "2. click('7')",
        '',
        '# Goal\nLog in\n\n# Current page\n/login',
      ].join('\n'),
    );
  });

  test('a template of your own: text with $ signs and placeholders in any order stay literal', () => {
    const teacher = teacherMessages(state, "click('$1')", '{observation}\n---\nHint ($&): {demonstration}');
    expect(teacher[3]!.content).toBe("# Goal\nLog in\n\n# Current page\n/login\n---\nHint ($&): click('$1')");
  });

  test('a template without both placeholders, or a state without a user turn, is refused', () => {
    expect(() => checkDemonstrationTemplate('Demo: {demonstration}')).toThrow(/has no \{observation\}/);
    expect(() => teacherMessages([{ role: 'system', content: 'x' }], 'd', DEFAULT_DEMONSTRATION_TEMPLATE)).toThrow(
      /needs a user turn/,
    );
  });
});
