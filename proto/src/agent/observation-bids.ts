import type { StepResult } from '../wire/observation.js';

/** `[bid] role …` at the start of an accessibility-tree line (after its indentation). */
const BID_LINE = /^[\t ]*\[([A-Za-z0-9_.-]{1,64})\]/gm;

/**
 * The element ids an agent can name now: those its accessibility tree shows, in tree order, each
 * once. What a bid-constrained reply may choose from.
 */
export function observationBids(result: StepResult): string[] {
  const bids = new Set<string>();
  for (const match of result.observation.axtree_txt.matchAll(BID_LINE)) bids.add(match[1]!);
  return [...bids];
}
