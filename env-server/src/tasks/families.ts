import type { ServerConfig } from '../config.js';
import { gauntletFamily } from './gauntlet/index.js';
import { miniwobFamily, miniwobTasks } from './miniwob/index.js';
import { miniwobPlusPlusFamily, miniwobSource } from './miniwob-plusplus/family.js';
import type { TaskFamily } from './registry.js';
import { pageOrigins } from './task-settings.js';
import { webFamily } from './web/index.js';

/** Where our own MiniWoB-style tasks go when real MiniWoB++ takes the `miniwob` name. */
export const BUILTIN_MINIWOB = 'miniwob-builtin';

/**
 * Every task family the server offers. With real MiniWoB++ configured (MINIWOB_URL or
 * --miniwob-dir) its tasks are `miniwob.<name>`, as BrowserGym users expect, and our built-in
 * ones stay reachable as `miniwob-builtin.<name>`. The open-web task `web` starts on the origins
 * pages may reach (--allow-origin).
 */
export function taskFamilies(
  config: Pick<ServerConfig, 'miniwobUrl' | 'miniwobDir' | 'miniwobTasks' | 'allowedOrigins'> = {
    miniwobUrl: undefined,
    miniwobDir: undefined,
    miniwobTasks: [],
    allowedOrigins: [],
  },
): TaskFamily[] {
  const web = webFamily({ extra: pageOrigins(config) });
  const source = miniwobSource(config);
  if (!source) return [miniwobFamily(), gauntletFamily(), web];
  const oracles = new Map(miniwobTasks.map((task) => [task.name, task.oracle] as const));
  return [miniwobPlusPlusFamily(source, oracles), miniwobFamily(BUILTIN_MINIWOB), gauntletFamily(), web];
}

/** The built-in families alone (no real MiniWoB++). */
export function builtinFamilies(): TaskFamily[] {
  return taskFamilies();
}
