import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Where `gauntlet-env` lives: the workspace's node_modules/.bin (found walking up from this
 * package, as npm installs it), else whatever `gauntlet-env` the PATH holds.
 */
export function findEnvBin(from = dirname(fileURLToPath(import.meta.url))): string {
  for (let dir = from; ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', '.bin', 'gauntlet-env');
    if (existsSync(candidate)) return candidate;
    if (dirname(dir) === dir) return 'gauntlet-env';
  }
}
