import type { TaskSite } from '../site.js';
import type { TaskDefinition } from '../task.js';
import { CORE_JS } from './core.js';
import { miniwobPath, miniwobTask, type MiniwobTaskSpec } from './define-task.js';
import { clickButtonOracle, clickLinkOracle, clickTestOracle, enterTextOracle, loginUserOracle } from './oracle.js';
import { clickButtonHtml } from './pages/click-button.js';
import { clickLinkHtml } from './pages/click-link.js';
import { clickTestHtml } from './pages/click-test.js';
import { enterTextHtml } from './pages/enter-text.js';
import { loginUserHtml } from './pages/login-user.js';
import { folderTasks } from './new-tasks.js';

export { miniwobPath } from './define-task.js';

const specs: MiniwobTaskSpec[] = [
  {
    name: 'click-test',
    description: 'Click the single "Click Me!" button.',
    html: clickTestHtml,
    oracle: clickTestOracle,
  },
  {
    name: 'click-button',
    description: 'Click the button whose label the goal names.',
    html: clickButtonHtml,
    oracle: clickButtonOracle,
  },
  {
    name: 'click-link',
    description: 'Click the link whose text the goal names, inside a paragraph.',
    html: clickLinkHtml,
    oracle: clickLinkOracle,
  },
  {
    name: 'enter-text',
    description: 'Type the given text into the field and press Submit.',
    html: enterTextHtml,
    oracle: enterTextOracle,
  },
  {
    name: 'login-user',
    description: 'Enter the given username and password and press Login.',
    html: loginUserHtml,
    oracle: loginUserOracle,
  },
  ...folderTasks,
];

/** Our own MiniWoB-style tasks (written from scratch), named after their MiniWoB counterparts. */
export const miniwobTasks: TaskDefinition[] = specs.map(miniwobTask);

/** Everything the task pages load, keyed by path on TASK_ORIGIN. */
export const miniwobSite: TaskSite = new Map([
  ['/miniwob/core.js', { contentType: 'text/javascript; charset=utf-8', body: CORE_JS }],
  ...specs.map(
    (spec) => [miniwobPath(spec.name), { contentType: 'text/html; charset=utf-8', body: spec.html }] as const,
  ),
]);
