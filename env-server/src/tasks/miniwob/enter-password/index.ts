import type { MiniwobTaskSpec } from '../define-task.js';
import { enterPasswordOracle } from './oracle.js';
import { enterPasswordHtml } from './page.js';

export const task: MiniwobTaskSpec = {
  name: 'enter-password',
  description: 'Type the password into both masked fields and press Submit.',
  html: enterPasswordHtml,
  oracle: enterPasswordOracle,
};
