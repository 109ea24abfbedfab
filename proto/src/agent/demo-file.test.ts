import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readDemoFile } from './demo-file.js';

const solved = JSON.stringify({
  task: 'miniwob.click-test',
  messages: [
    { role: 'system', content: 's' },
    { role: 'user', content: "[4] button 'Click Me!'" },
    { role: 'assistant', content: "click('4')" },
  ],
});

function file(name: string, text: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'demo-file-'));
  writeFileSync(join(dir, name), text);
  return join(dir, name);
}

describe('a demo file', () => {
  it('reads each line as a conversation with its task and line, through demo.json too', async () => {
    const unnamed = JSON.stringify({ messages: JSON.parse(solved).messages });
    const path = file('demo.jsonl', `${solved}\n\n${unnamed}\n`);
    const demos = await readDemoFile(path.replace(/l$/, ''));
    expect(demos.map((d) => [d.task, d.line, d.messages.length])).toEqual([
      ['miniwob.click-test', 1, 3],
      [null, 3, 3],
    ]);
    // Read through demo.json, each names the demo.jsonl it came from (what an error must point at).
    expect(demos.map((d) => d.file)).toEqual([path, path]);
  });

  it.each([
    ['not JSON', '{', /line 1: is not JSON/],
    ['no messages', '{"task": "x"}', /line 1: must be an object with "messages"/],
    ['a bad message', '{"messages": [{"role": "user", "content": 3}]}', /messages\[0\] must have a string "role"/],
    ['no action', '{"messages": [{"role": "user", "content": "o"}]}', /line 1: holds no action/],
    ['nothing', '\n\n', /holds no demonstration/],
  ])('refuses %s with a usage error naming the flag, the file and the line', async (_, text, message) => {
    const path = file('d.jsonl', text);
    await expect(readDemoFile(path, 'demo')).rejects.toThrow(message);
    await expect(readDemoFile(path, 'demo')).rejects.toMatchObject({ name: 'UsageError', flag: 'demo' });
  });

  it('says when a demo.json has no demo.jsonl beside it, and when a file is missing', async () => {
    const json = file('demo.json', '{}');
    await expect(readDemoFile(json)).rejects.toThrow(/--demo .*demo\.json: no demo\.jsonl beside it/);
    await expect(readDemoFile(join(tmpdir(), 'none', 'x.jsonl'))).rejects.toThrow(/--demo .*x\.jsonl: no such file/);
  });
});
