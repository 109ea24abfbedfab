import type { MiniwobTaskSpec } from '../define-task.js';
import { searchEngineOracle } from './oracle.js';
import { searchEngineHtml } from './page.js';

export const task: MiniwobTaskSpec = {
  name: 'search-engine',
  description: 'Search for the query, page through the results and click the N-th one.',
  html: searchEngineHtml,
  oracle: searchEngineOracle,
};
