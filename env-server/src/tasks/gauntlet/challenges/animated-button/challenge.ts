import { defineChallenge } from '../../challenge.js';
import { WORDS } from '../words.js';

interface Params {
  label: string;
  decoy: string;
  decoyFirst: boolean;
  /** The button slides right at `speed` px/s along a `track`-px line and wraps back to 0. */
  track: number;
  speed: number;
  /** Where it starts; "Restart slide" (and unlocking) puts it back at x = 0. */
  startX: number;
  /** Clicks count only while its x is in [zoneFrom, zoneFrom + zoneWidth]. */
  zoneFrom: number;
  zoneWidth: number;
}

/**
 * Click a sliding button while it is inside a stated zone. The page reports the button's
 * position and states its speed, and "Restart slide" puts it back at x = 0, so the moment must be
 * worked out (from the reported position, or from a restart) and waited for; a click outside the
 * zone (or on the still decoy) locks the puzzle. The zone starts at a random, stated place at
 * least 1.5 s of sliding past x = 0, so a click right after a restart is never inside it, and a
 * fixed wait after a restart hits it on only some seeds. The zone is a twelfth of the track, so
 * a click at a random moment (a policy that presses every button) lands in it about one time in 12.
 */
export const animatedButton = defineChallenge<Params>({
  type: 'animated_button',
  title: 'Moving button',
  generate(rng) {
    const [label, decoy] = rng.sample(WORDS, 2);
    return {
      label: `Catch ${label}`,
      decoy: `Catch ${decoy}`,
      decoyFirst: rng.chance(0.5),
      track: 1000,
      speed: 40,
      startX: rng.int(0, 999),
      zoneFrom: rng.round(60, 380, 10),
      zoneWidth: 80,
    };
  },
  render: (ctx) => {
    const { label, decoy, decoyFirst, track, speed, startX, zoneFrom, zoneWidth } = ctx.params;
    const zoneTo = zoneFrom + zoneWidth;
    ctx.instruct(
      `Click "${label}" while its position is between x = ${zoneFrom} and x = ${zoneTo} px. It slides right at ${speed} px/s and wraps from ${track} back to 0; "Restart slide" puts it back at x = 0. A click outside that zone, or on "${decoy}", locks the puzzle.`,
    );
    const mover = ctx.el('button', { type: 'button', class: 'mover' }, label);
    const still = ctx.el('button', { type: 'button', class: 'still' }, decoy);
    const where = ctx.el('p', { 'aria-label': 'Button position' });
    let origin = startX;
    let started = performance.now();
    const x = () => Math.floor(origin + ((performance.now() - started) / 1000) * speed) % track;
    const restart = () => {
      origin = 0;
      started = performance.now();
    };
    mover.addEventListener('click', () => {
      const at = x();
      if (at >= zoneFrom && at <= zoneTo) {
        ctx.say(`Caught at x = ${at} px.`);
        ctx.reveal();
        return;
      }
      ctx.lock(`Clicked at x = ${at} px, outside the zone.`, restart);
    });
    still.addEventListener('click', () => ctx.lock(`"${decoy}" is the decoy.`));
    const again = ctx.el('button', { type: 'button' }, 'Restart slide');
    again.addEventListener('click', restart);
    const zone = ctx.el('div', { class: 'zone', style: `left: ${zoneFrom}px; width: ${zoneTo - zoneFrom + 120}px` });
    const track_ = ctx.el('div', { class: 'track' }, zone, ...(decoyFirst ? [still, mover] : [mover, still]));
    let frame = 0;
    const move = () => {
      const at = x();
      mover.style.transform = `translateX(${at}px)`;
      const text = `Button position: x = ${at} px.`;
      if (where.textContent !== text) where.textContent = text;
      frame = requestAnimationFrame(move);
    };
    move();
    ctx.onCleanup(() => cancelAnimationFrame(frame));
    ctx.area.append(track_, where, again);
  },
  css: `.puzzle .track { position: relative; height: 110px; width: 1140px; }
  .puzzle .track .zone { position: absolute; top: 40px; height: 40px; background: #dfd; }
  .puzzle .mover { position: absolute; left: 0; top: 48px; width: 120px; }
  .puzzle .still { position: absolute; left: 8px; top: 4px; }`,
});
