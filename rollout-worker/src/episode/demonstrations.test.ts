import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { demonstrationsFor, readDemoActions } from './demonstrations.js';

const conversation = (task: string | undefined, actions: string[]) =>
  JSON.stringify({
    ...(task ? { task } : {}),
    messages: [
      { role: 'system', content: 's' },
      ...actions.flatMap((a) => [
        { role: 'user', content: "[9] textbox 'Username'\n[15] button 'Log in'" },
        { role: 'assistant', content: a },
      ]),
    ],
  });

function file(name: string, text: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'demo-'));
  writeFileSync(join(dir, name), text);
  return join(dir, name);
}

describe('eval --demo files', () => {
  it("reads each line's actions with what they acted on, and gives each task its own (bare or full names, through demo.json too)", async () => {
    const path = file(
      'demo.jsonl',
      `${conversation('miniwob.login-user', ["fill('9', 'a')", "click('15')"])}\n${conversation('miniwob.click-test', ["click('4')"])}\n`,
    );
    const demos = await readDemoActions(path.replace(/l$/, ''));
    const views = demonstrationsFor(['login-user', 'miniwob.click-test'], demos, 'T', path);
    expect(views).toEqual({
      'login-user': {
        text: "1. fill('9', 'a') on textbox 'Username'\n2. click('15') on button 'Log in'",
        template: 'T',
      },
      'miniwob.click-test': { text: "1. click('4')", template: 'T' },
    });
  });

  it('refuses a task without a demonstration, a line without actions, and a missing file, naming --demo', async () => {
    const path = file('d.jsonl', `${conversation('miniwob.click-test', ["click('4')"])}\n`);
    expect(() =>
      demonstrationsFor(['login-user'], [{ task: 'miniwob.click-test', actions: ['x'] }], 'T', path),
    ).toThrow(/has no demonstration of login-user \(it holds miniwob.click-test\)/);
    await expect(readDemoActions(file('e.jsonl', `${conversation(undefined, [])}\n`))).rejects.toThrow(
      /line 1: holds no action/,
    );
    await expect(readDemoActions(join(tmpdir(), 'none', 'demo.jsonl'))).rejects.toThrow(/--demo .*no such file/);
    // One unnamed demonstration serves every task.
    expect(demonstrationsFor(['a', 'b'], [{ task: null, actions: ['x'] }], 'T', path).b).toEqual({
      text: '1. x',
      template: 'T',
    });
  });
});
