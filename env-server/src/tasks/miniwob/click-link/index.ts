import type { MiniwobTaskSpec } from '../define-task.js';
import { clickLinkOracle } from './oracle.js';
import { clickLinkHtml } from './page.js';

export const task: MiniwobTaskSpec = {
  name: 'click-link',
  description: 'Click the link whose text the goal names, inside a paragraph.',
  html: clickLinkHtml,
  oracle: clickLinkOracle,
};
