import type { MiniwobTaskSpec } from '../define-task.js';
import { chooseDateOracle } from './oracle.js';
import { chooseDateHtml } from './page.js';

export const task: MiniwobTaskSpec = {
  name: 'choose-date',
  description: 'Pick the given date in a calendar (month paging, day buttons) and press Submit.',
  html: chooseDateHtml,
  oracle: chooseDateOracle,
  maxSteps: 15,
};
