import type { MiniwobTaskSpec } from '../define-task.js';
import { enterTextDynamicOracle } from './oracle.js';
import { enterTextDynamicHtml } from './page.js';

export const task: MiniwobTaskSpec = {
  name: 'enter-text-dynamic',
  description: 'Type a random string of letters and digits into the field and press Submit.',
  html: enterTextDynamicHtml,
  oracle: enterTextDynamicOracle,
};
