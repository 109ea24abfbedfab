import type { MiniwobTaskSpec } from '../define-task.js';
import { loginUserOracle } from './oracle.js';
import { loginUserHtml } from './page.js';

export const task: MiniwobTaskSpec = {
  name: 'login-user',
  description: 'Enter the given username and password and press Login.',
  html: loginUserHtml,
  oracle: loginUserOracle,
};
