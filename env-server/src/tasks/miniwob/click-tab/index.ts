import type { MiniwobTaskSpec } from '../define-task.js';
import { clickTabOracle } from './oracle.js';
import { clickTabHtml } from './page.js';

export const task: MiniwobTaskSpec = {
  name: 'click-tab',
  description: 'Click the numbered tab the goal names.',
  html: clickTabHtml,
  oracle: clickTabOracle,
};
