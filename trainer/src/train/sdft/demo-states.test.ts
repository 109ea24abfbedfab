import { describe, expect, it } from 'vitest';
import { demoStates } from './demo-states.js';

describe("a demonstration's states", () => {
  it('are the user turns an action follows, each showing the whole demo with what its actions acted on', () => {
    const messages = [
      { role: 'system' as const, content: 'Act.' },
      { role: 'user' as const, content: "# Goal\nLog in\n[3] textbox 'Username'" },
      { role: 'assistant' as const, content: "fill('3', 'ann')" },
      { role: 'user' as const, content: "[7] button 'Log in'" },
      { role: 'assistant' as const, content: "click('7')" },
      { role: 'user' as const, content: 'a recording stopped here' },
    ];
    const states = demoStates({ task: 'login-user', messages });
    expect(states.map((s) => [s.prompt.length, s.action])).toEqual([
      [2, "fill('3', 'ann')"],
      [4, "click('7')"],
    ]);
    expect(states[1]!.demonstration).toBe(
      "1. fill('3', 'ann') on textbox 'Username'\n2. click('7') on button 'Log in'",
    );
    expect(states[0]!.demonstration).toBe(states[1]!.demonstration);
  });
});
