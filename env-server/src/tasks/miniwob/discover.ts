import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { MiniwobTaskSpec } from './define-task.js';

/**
 * Finds the task folders under `root`: every subfolder with an `index` module that exports one
 * MiniwobTaskSpec named like the folder. Adding a task is adding its folder; nothing lists them.
 * Sorted by name, so the task list does not depend on the file system's order.
 */
export async function discoverTaskSpecs(root: URL): Promise<MiniwobTaskSpec[]> {
  const dir = fileURLToPath(root);
  const folders = readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
  const specs: MiniwobTaskSpec[] = [];
  for (const folder of folders) {
    // Built: index.js; run from source (tests): index.ts.
    const file = ['index.js', 'index.ts'].map((name) => join(dir, folder, name)).find((path) => existsSync(path));
    if (!file) continue;
    const exported = Object.values((await import(pathToFileURL(file).href)) as Record<string, unknown>);
    const found = exported.filter(isTaskSpec);
    if (found.length !== 1)
      throw new Error(`tasks/miniwob/${folder}/index must export exactly one MiniwobTaskSpec (found ${found.length})`);
    if (found[0]!.name !== folder)
      throw new Error(
        `tasks/miniwob/${folder}/index exports task ${JSON.stringify(found[0]!.name)}: name it like its folder`,
      );
    specs.push(found[0]!);
  }
  return specs;
}

function isTaskSpec(value: unknown): value is MiniwobTaskSpec {
  if (!value || typeof value !== 'object') return false;
  const spec = value as Partial<MiniwobTaskSpec>;
  return typeof spec.name === 'string' && typeof spec.html === 'string' && typeof spec.oracle === 'function';
}
