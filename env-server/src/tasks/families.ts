import { gauntletFamily } from './gauntlet/index.js';
import { miniwobFamily } from './miniwob/index.js';
import type { TaskFamily } from './registry.js';

/** Every task family built into the server. */
export function builtinFamilies(): TaskFamily[] {
  return [miniwobFamily(), gauntletFamily()];
}
