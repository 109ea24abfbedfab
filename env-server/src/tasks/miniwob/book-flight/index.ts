import type { MiniwobTaskSpec } from '../define-task.js';
import { bookFlightOracle } from './oracle.js';
import { bookFlightHtml } from './page.js';

export const task: MiniwobTaskSpec = {
  name: 'book-flight',
  description: 'Fill a flight search form, then book the shortest or cheapest flight found.',
  html: bookFlightHtml,
  oracle: bookFlightOracle,
};
