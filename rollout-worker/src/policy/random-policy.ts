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
    const next = mulberry32(seed ?? hashString(episode.episodeId));
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

/** A small seeded PRNG in [0, 1): enough for choosing clicks reproducibly. */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** FNV-1a: a stable 32-bit number from a string. */
function hashString(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}
