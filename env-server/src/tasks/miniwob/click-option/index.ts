import type { MiniwobTaskSpec } from '../define-task.js';
import { clickOptionOracle } from './oracle.js';
import { clickOptionHtml } from './page.js';

export const task: MiniwobTaskSpec = {
  name: 'click-option',
  description: 'Choose the named radio button and press Submit.',
  html: clickOptionHtml,
  oracle: clickOptionOracle,
};
