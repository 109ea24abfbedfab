import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Where a workspace bin (`gauntlet-env`, `gauntlet-trainer`) lives: the workspace's
 * node_modules/.bin (found walking up from this package, as npm installs it), else whatever the
 * PATH holds under that name.
 */
export function findBin(name: string, from = dirname(fileURLToPath(import.meta.url))): string {
  for (let dir = from; ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', '.bin', name);
    if (existsSync(candidate)) return candidate;
    if (dirname(dir) === dir) return name;
  }
}

export const findEnvBin = (from?: string): string => findBin('gauntlet-env', from);
