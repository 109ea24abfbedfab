import type { MiniwobTaskSpec } from '../define-task.js';
import { clickCollapsibleOracle } from './oracle.js';
import { clickCollapsibleHtml } from './page.js';

export const task: MiniwobTaskSpec = {
  name: 'click-collapsible',
  description: 'Expand a collapsed section, then press the Submit button it reveals.',
  html: clickCollapsibleHtml,
  oracle: clickCollapsibleOracle,
};
