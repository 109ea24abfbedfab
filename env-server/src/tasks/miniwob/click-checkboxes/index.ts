import type { MiniwobTaskSpec } from '../define-task.js';
import { clickCheckboxesOracle } from './oracle.js';
import { clickCheckboxesHtml } from './page.js';

export const task: MiniwobTaskSpec = {
  name: 'click-checkboxes',
  description: 'Check exactly the named checkboxes (possibly none) and press Submit.',
  html: clickCheckboxesHtml,
  oracle: clickCheckboxesOracle,
};
