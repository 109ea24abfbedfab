import type { MiniwobTaskSpec } from '../define-task.js';
import { useAutocompleteOracle } from './oracle.js';
import { useAutocompleteHtml } from './page.js';

export const task: MiniwobTaskSpec = {
  name: 'use-autocomplete',
  description: 'Pick a country fitting the given first and last letters from a suggestion menu, then Submit.',
  html: useAutocompleteHtml,
  oracle: useAutocompleteOracle,
  maxSteps: 15,
};
