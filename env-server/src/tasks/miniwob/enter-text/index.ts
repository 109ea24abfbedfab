import type { MiniwobTaskSpec } from '../define-task.js';
import { enterTextOracle } from './oracle.js';
import { enterTextHtml } from './page.js';

export const task: MiniwobTaskSpec = {
  name: 'enter-text',
  description: 'Type the given text into the field and press Submit.',
  html: enterTextHtml,
  oracle: enterTextOracle,
};
