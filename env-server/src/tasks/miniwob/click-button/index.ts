import type { MiniwobTaskSpec } from '../define-task.js';
import { clickButtonOracle } from './oracle.js';
import { clickButtonHtml } from './page.js';

export const task: MiniwobTaskSpec = {
  name: 'click-button',
  description: 'Click the button whose label the goal names.',
  html: clickButtonHtml,
  oracle: clickButtonOracle,
};
