import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';

const here = dirname(fileURLToPath(import.meta.url));

function* files(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* files(path);
    else if (name.endsWith('.ts')) yield path;
  }
}

// The house rule: the autodiff core imports nothing internal — only itself, node and onnx packages,
// and the repo's one seeded generator (a leaf module with no imports of its own).
test('engine/ imports nothing from the rest of the trainer or other workspaces', () => {
  const allowedPackages = new Set(['onnxruntime-node', 'onnx-proto', 'vitest', '@gauntlet/proto/random']);
  const problems: string[] = [];
  for (const file of files(here)) {
    for (const [, spec] of readFileSync(file, 'utf8').matchAll(/^(?:import|export)[^']*?from '([^']+)'/gm)) {
      const leaves = spec!.startsWith('.') && !resolve(dirname(file), spec!).startsWith(here);
      const foreign = !spec!.startsWith('.') && !spec!.startsWith('node:') && !allowedPackages.has(spec!);
      if (leaves || foreign) problems.push(`${relative(here, file)} imports ${spec}`);
    }
  }
  expect(problems).toEqual([]);
});
