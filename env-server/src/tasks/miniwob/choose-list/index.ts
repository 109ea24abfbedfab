import type { MiniwobTaskSpec } from '../define-task.js';
import { chooseListOracle } from './oracle.js';
import { chooseListHtml } from './page.js';

export const task: MiniwobTaskSpec = {
  name: 'choose-list',
  description: 'Select the named entry of a drop-down list and press Submit.',
  html: chooseListHtml,
  oracle: chooseListOracle,
};
