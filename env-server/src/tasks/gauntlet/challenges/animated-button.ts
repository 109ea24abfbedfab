import { defineChallenge } from '../challenge.js';
import { WORDS } from './words.js';

interface Params {
  label: string;
  decoy: string;
  /** Motion: a Lissajous path around the track's centre. */
  ampX: number;
  ampY: number;
  periodMs: number;
  phase: number;
}

/** Click a button that never stops moving (a decoy stands still). */
export const animatedButton = defineChallenge<Params>({
  type: 'animated_button',
  title: 'Moving button',
  generate(rng) {
    const [label, decoy] = rng.sample(WORDS, 2);
    return {
      label: `Catch ${label}`,
      decoy: `Catch ${decoy}`,
      ampX: rng.int(120, 260),
      ampY: rng.int(30, 60),
      periodMs: rng.round(2400, 4000, 100),
      phase: rng.int(0, 628) / 100,
    };
  },
  render: (ctx) => {
    const { label, decoy, ampX, ampY, periodMs, phase } = ctx.params;
    ctx.instruct(
      `Click the moving "${label}" button. It keeps moving the whole time; "${decoy}" stands still and is a decoy.`,
    );
    const mover = ctx.el('button', { type: 'button', class: 'mover' }, label);
    const still = ctx.el('button', { type: 'button', class: 'still' }, decoy);
    mover.addEventListener('click', () => ctx.reveal());
    still.addEventListener('click', () => ctx.fail(`"${decoy}" is the decoy.`));
    const track = ctx.el('div', { class: 'track' }, still, mover);
    const started = performance.now();
    let frame = 0;
    const move = () => {
      const t = ((performance.now() - started) / periodMs) * 2 * Math.PI + phase;
      mover.style.transform = `translate(${Math.round(ampX * Math.sin(t))}px, ${Math.round(ampY * Math.sin(2 * t))}px)`;
      frame = requestAnimationFrame(move);
    };
    move();
    ctx.onCleanup(() => cancelAnimationFrame(frame));
    ctx.area.append(track);
  },
  css: `.puzzle .track { position: relative; height: 170px; }
  .puzzle .mover { position: absolute; left: calc(50% - 60px); top: 65px; width: 120px; }
  .puzzle .still { position: absolute; left: 8px; top: 8px; }`,
});
