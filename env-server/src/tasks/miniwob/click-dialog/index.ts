import type { MiniwobTaskSpec } from '../define-task.js';
import { clickDialogOracle } from './oracle.js';
import { clickDialogHtml } from './page.js';

export const task: MiniwobTaskSpec = {
  name: 'click-dialog',
  description: 'Close a dialog with its "×" button, not its other buttons.',
  html: clickDialogHtml,
  oracle: clickDialogOracle,
};
