import { describe, expect, it } from 'vitest';
import type { StepResult } from '../wire/observation.js';
import { observationBids } from './observation-bids.js';

const withTree = (axtree_txt: string) => ({ observation: { axtree_txt } }) as unknown as StepResult;

describe('observationBids', () => {
  it('lists the bids that start tree lines, in order, once each', () => {
    const tree = [
      "RootWebArea 'Click Test Task', focused",
      "\t[7] generic ''",
      "\t\t[13] button 'Click Me!'",
      "\t\t[a2.1] link 'see [99] in text'",
      "\t\t[13] button 'again'",
      "\t\tStaticText '[42] not a bid here'",
    ].join('\n');
    expect(observationBids(withTree(tree))).toEqual(['7', '13', 'a2.1']);
    expect(observationBids(withTree(''))).toEqual([]);
  });
});
