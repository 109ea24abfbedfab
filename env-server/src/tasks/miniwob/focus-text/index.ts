import type { MiniwobTaskSpec } from '../define-task.js';
import { focusTextOracle } from './oracle.js';
import { focusTextHtml } from './page.js';

export const task: MiniwobTaskSpec = {
  name: 'focus-text',
  description: 'Focus the textbox the goal counts to.',
  html: focusTextHtml,
  oracle: focusTextOracle,
};
