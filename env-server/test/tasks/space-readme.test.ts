import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { miniwobTasks } from '../../src/tasks/miniwob/index.js';

const readme = readFileSync(fileURLToPath(new URL('../../../space/README.md', import.meta.url)), 'utf8');

it("the Space's README lists exactly the built-in MiniWoB-style tasks the server serves", () => {
  const section = /<!-- tasks:[^>]*-->([\s\S]*?)<!-- \/tasks -->/.exec(readme)?.[1] ?? '';
  const listed = [...section.matchAll(/`([^`]+)`/g)].map((match) => match[1]);
  expect(listed).toEqual(miniwobTasks.map((task) => task.name).sort());
});
