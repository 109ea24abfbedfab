import type { MiniwobTaskSpec } from '../define-task.js';
import { enterPasswordOracle } from './oracle.js';
import { enterPasswordHtml } from './page.js';

export const enterPassword: MiniwobTaskSpec = {
  name: 'enter-password',
  description: 'Type the password into both masked fields and press Submit.',
  html: enterPasswordHtml,
  oracle: enterPasswordOracle,
};
