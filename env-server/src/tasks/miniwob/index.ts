import type { TaskFamily } from '../registry.js';
import type { TaskSite } from '../../browser/site.js';
import type { TaskDefinition } from '../task.js';
import { CORE_JS } from './core.js';
import { miniwobPath, miniwobTask } from './define-task.js';
import { discoverTaskSpecs } from './discover.js';

export { miniwobPath, type MiniwobTaskSpec } from './define-task.js';

/** Our own MiniWoB-style tasks (written from scratch), one folder each, named after their MiniWoB counterparts. */
export const miniwobSpecs = await discoverTaskSpecs(new URL('.', import.meta.url));

export const miniwobTasks: TaskDefinition[] = miniwobSpecs.map((spec) => miniwobTask(spec));

/** Everything the task pages load, keyed by path on TASK_ORIGIN. */
export const miniwobSite: TaskSite = new Map([
  ['/miniwob/core.js', { contentType: 'text/javascript; charset=utf-8', body: CORE_JS }],
  ...miniwobSpecs.map(
    (spec) => [miniwobPath(spec.name), { contentType: 'text/html; charset=utf-8', body: spec.html }] as const,
  ),
]);

/**
 * The built-in family. Its benchmark is `miniwob` unless the operator serves real MiniWoB++,
 * whose tasks then take that name (BrowserGym users expect the real pages) and ours move aside.
 */
export function miniwobFamily(benchmark = 'miniwob'): TaskFamily {
  return {
    benchmark,
    tasks: benchmark === 'miniwob' ? miniwobTasks : miniwobSpecs.map((spec) => miniwobTask(spec, benchmark)),
    site: miniwobSite,
  };
}
