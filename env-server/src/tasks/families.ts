import { gauntletFamily } from './gauntlet/index.js';
import { miniwobSite, miniwobTasks } from './miniwob/index.js';
import type { TaskFamily } from './registry.js';

/** Every task family built into the server. */
export function builtinFamilies(): TaskFamily[] {
  return [{ benchmark: 'miniwob', tasks: miniwobTasks, site: miniwobSite }, gauntletFamily()];
}
