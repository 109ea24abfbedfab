import type { MiniwobTaskSpec } from '../define-task.js';
import { navigateTreeOracle } from './oracle.js';
import { navigateTreeHtml } from './page.js';

export const task: MiniwobTaskSpec = {
  name: 'navigate-tree',
  description: 'Open folders of a file tree to find and click the named item.',
  html: navigateTreeHtml,
  oracle: navigateTreeOracle,
  maxSteps: 20,
};
