// Kept while the oracle folders move: AXTree queries are shared by every family's oracles.
export * from '../../policy/ax-query.js';
