import type { MiniwobTaskSpec } from '../define-task.js';
import { clickTestOracle } from './oracle.js';
import { clickTestHtml } from './page.js';

export const task: MiniwobTaskSpec = {
  name: 'click-test',
  description: 'Click the single "Click Me!" button.',
  html: clickTestHtml,
  oracle: clickTestOracle,
};
