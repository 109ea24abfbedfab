import { MULBERRY32_INCREMENT, mulberry32Output } from '@gauntlet/proto/random';

/**
 * The page runtime every MiniWoB-style task page loads as `/miniwob/core.js`. It owns the
 * episode (seeded PRNG, reward, done) so each task page only says how to draw itself and when
 * the episode ends. Kept as a string so it ships inside dist with the rest of the build.
 *
 * API on `window.gauntletTask`:
 * - `define({ render(rng, area, end) → goal })`: called once by the task page's script;
 *   `end(rawReward, reason)` finishes the episode (the first call wins).
 * - `reset(seed) → { goal, episode }`: redraws the task area in place (no reload); same seed,
 *   same DOM. `episode` numbers the resets of this document.
 * - `status() → { rawReward, done, reason, episode }`.
 * - helpers for pages: `rng(seed)`, `el(tag, attrs, children)`, `words`, `names`.
 */
export const CORE_JS = String.raw`(() => {
  'use strict';

  // The repo's one seeded generator (mulberry32), embedded from proto so pages draw what Node
  // draws; integers only below so the DOM serialises identically for a seed.
  ${mulberry32Output}
  function mulberry32(seed) {
    let a = seed >>> 0;
    return function next() {
      a = (a + ${MULBERRY32_INCREMENT}) >>> 0;
      return mulberry32Output(a);
    };
  }

  function rng(seed) {
    // Fold the high bits in so seeds 2^32 apart do not give the same page.
    const hi = Math.floor(seed / 4294967296) >>> 0;
    const next = mulberry32((seed >>> 0) ^ Math.imul(hi, 0x9e3779b1));
    const int = (lo, hiIncl) => lo + Math.floor(next() * (hiIncl - lo + 1));
    const shuffle = (items) => {
      const out = items.slice();
      for (let i = out.length - 1; i > 0; i--) {
        const j = int(0, i);
        [out[i], out[j]] = [out[j], out[i]];
      }
      return out;
    };
    return {
      next,
      int,
      pick: (items) => items[int(0, items.length - 1)],
      shuffle,
      sample: (items, n) => shuffle(items).slice(0, n),
    };
  }

  // Attributes are set in the order given, so the serialised DOM is stable for a seed.
  function el(tag, attrs, children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs || {})) node.setAttribute(key, String(value));
    for (const child of children || []) node.append(child);
    return node;
  }

  const words = ('able acid aged also area army away baby back ball band bank base bath bear beat ' +
    'bell best bird blue boat body bone book born both bowl burn busy cake calm camp card care ' +
    'cart case cash cell chip city clay coat code cold cook cool copy corn cost crew dark data ' +
    'dawn deal deep deer desk dial disk dock door dove drop drum duck dust earn east easy edge ' +
    'face fact fair farm fast fern film fire fish flag flat foam fold food foot fork form fuel ' +
    'gate gift glad glow goal gold golf good gray grid grow hair half hall hand harp hawk heat ' +
    'herb hill hint hold home hook hope horn idea iron item jade jazz join jump keen kind king ' +
    'kite knee lake lamp land lane leaf lens life lime line lion list loaf lock loop mail map ' +
    'mask meal mild milk mint moon moss nest news note oak oval page palm park path pear pine ' +
    'plum pond pool port rain reed rice ring road rock roof rope rose ruby sage sail salt sand ' +
    'seed ship silk snow sock soft song soup star stem sun swan tale tent tide tile town tree ' +
    'vase vine wave well wind wing wolf wood wool yard yarn zinc').split(' ');

  const names = ('aaron ada alma amir anya arlo beth boris cara cedric dana dario elin emil ' +
    'fatima felix gala gideon hana hugo ines ivan jana joel kai kira lars lena malik mina nadia ' +
    'nico olga omar petra quinn rosa rui sami sofia tariq tessa uma viktor wren yara zane').split(' ');

  let task = null;
  let episode = 0;
  let state = { rawReward: 0, done: false, reason: 'not started' };

  function reset(seed) {
    if (!task) throw new Error('no task defined on this page');
    const area = document.getElementById('area');
    const query = document.getElementById('query');
    episode += 1;
    const mine = episode;
    state = { rawReward: 0, done: false, reason: 'in progress' };
    // Handlers of an earlier episode must not end this one, even if a stale node lingers.
    const end = (rawReward, reason) => {
      if (mine !== episode || state.done) return;
      state = { rawReward, done: true, reason };
    };
    area.replaceChildren();
    query.textContent = task.render(rng(seed), area, end);
    return { goal: query.textContent, episode: mine };
  }

  window.gauntletTask = {
    define(definition) {
      task = definition;
    },
    reset,
    status: () => ({ ...state, episode }),
    rng,
    el,
    words,
    names,
  };
})();
`;
