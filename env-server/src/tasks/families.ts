import type { ServerConfig } from '../config.js';
import { gauntletFamily } from './gauntlet/index.js';
import { miniwobFamily, miniwobTasks } from './miniwob/index.js';
import { miniwobPlusPlusFamily, miniwobSource } from './miniwob-plusplus/family.js';
import type { TaskFamily } from './registry.js';

/** Where our own MiniWoB-style tasks go when real MiniWoB++ takes the `miniwob` name. */
export const BUILTIN_MINIWOB = 'miniwob-builtin';

/**
 * Every task family the server offers. With real MiniWoB++ configured (MINIWOB_URL or
 * --miniwob-dir) its tasks are `miniwob.<name>`, as BrowserGym users expect, and our built-in
 * ones stay reachable as `miniwob-builtin.<name>`.
 */
export function taskFamilies(
  config: Pick<ServerConfig, 'miniwobUrl' | 'miniwobDir' | 'miniwobTasks'> = {
    miniwobUrl: undefined,
    miniwobDir: undefined,
    miniwobTasks: [],
  },
): TaskFamily[] {
  const source = miniwobSource(config);
  if (!source) return [miniwobFamily(), gauntletFamily()];
  const oracles = new Map(miniwobTasks.map((task) => [task.name, task.oracle] as const));
  return [miniwobPlusPlusFamily(source, oracles), miniwobFamily(BUILTIN_MINIWOB), gauntletFamily()];
}

/** The built-in families alone (no real MiniWoB++). */
export function builtinFamilies(): TaskFamily[] {
  return taskFamilies();
}
