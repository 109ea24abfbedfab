import { act, parseAxtree, mustFind, type OraclePolicy } from '../oracle.js';

export const clickTestOracle: OraclePolicy = (view) =>
  act.click(mustFind(parseAxtree(view.axtree_txt), 'button', (name) => name === 'Click Me!'));
