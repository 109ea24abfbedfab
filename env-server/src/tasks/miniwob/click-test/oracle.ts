import { click, find, parseAxtree, type OraclePolicy } from '../oracle.js';

export const clickTestOracle: OraclePolicy = (view) =>
  click(find(parseAxtree(view.axtree_txt), 'button', (name) => name === 'Click Me!'));
