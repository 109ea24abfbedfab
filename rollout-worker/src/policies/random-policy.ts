import { hashSeed, seededRandom } from '@gauntlet/proto/random';
import { scriptedPolicy, type EpisodePolicy } from '@gauntlet/proto/agent';

/** AXTree roles a random agent clicks (BrowserGym's flattened format: `[bid] role 'name'`). */
const CLICKABLE = /^\s*\[([^\]\s]+)\]\s+(button|link|checkbox|radio|menuitem|tab|option|combobox|textbox|switch)\b/;

/**
 * The random-click baseline: each turn clicks a uniformly chosen interactive element (noop()
 * when there is none). Seeded per episode, so the same seed plays the same clicks. It needs no
 * policy server: a floor for success-rate tables, and a cheap policy for load tests.
 */
export function randomPolicy(seed?: number | null): EpisodePolicy {
  return scriptedPolicy('random', (episode) => {
    // Without a sampling seed, the episode id seeds it: siblings of a group click differently.
    const next = seededRandom(seed ?? hashSeed(episode.episodeId));
    return ({ result }) => {
      const bids = result.observation.axtree_txt
        .split('\n')
        .map((line) => CLICKABLE.exec(line)?.[1])
        .filter((bid): bid is string => bid !== undefined);
      if (bids.length === 0) return 'noop()';
      return `click(${JSON.stringify(bids[Math.floor(next() * bids.length)])})`;
    };
  });
}
