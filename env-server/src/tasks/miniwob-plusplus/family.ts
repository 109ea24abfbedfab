import type { TaskFamily } from '../registry.js';
import type { OracleView } from '../task.js';
import { realMiniwobTask } from './define-task.js';
import type { MiniwobSource } from './source.js';
import { REALTIME_TASKS } from './task-names.js';

export { miniwobSource, type MiniwobSettings } from './source.js';

/**
 * Real MiniWoB++ as the `miniwob` benchmark. A built-in task of the same name lends its oracle
 * (it reads the AXTree like an agent, so it may solve the real page too); others have none.
 */
export function miniwobPlusPlusFamily(
  source: MiniwobSource,
  oracles: ReadonlyMap<string, (view: OracleView) => string>,
): TaskFamily {
  const tasks = source.names.map((name) => {
    const oracle = oracles.get(name);
    return realMiniwobTask({
      name,
      url: `${source.base}${name}.html`,
      realtime: REALTIME_TASKS.includes(name),
      ...(oracle ? { oracle } : {}),
    });
  });
  return { benchmark: 'miniwob', tasks, site: new Map(), ...(source.mount ? { mounts: [source.mount] } : {}) };
}
