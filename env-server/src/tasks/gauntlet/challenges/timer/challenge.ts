import { defineChallenge } from '../../challenge.js';

interface Params {
  /** The window, in seconds on the step's clock: [from, from + width]. */
  from: number;
  width: number;
}

/**
 * Press within a stated window of the step's own clock. Early and late presses lock the puzzle,
 * so neither pressing at once nor waiting blindly works: the window (2 s wide, starting at a
 * random, stated 2.5–7 s) must be read and the wait timed on the clock, from its reading or from
 * a press of "Restart clock". A fixed wait lands inside the window on well under half the seeds.
 */
export const timer = defineChallenge<Params>({
  type: 'timer',
  title: 'Timing window',
  generate: (rng) => ({ from: rng.int(25, 70) / 10, width: 2 }),
  render: (ctx) => {
    const { from, width } = ctx.params;
    const until = from + width;
    ctx.instruct(
      `Press "Press" while the page clock below reads between ${from.toFixed(1)} s and ${until.toFixed(1)} s. An earlier or later press locks the puzzle; "Restart clock" sets the clock back to 0.`,
    );
    let started = performance.now();
    const seconds = () => (performance.now() - started) / 1000;
    const clock = ctx.el('p', { 'aria-label': 'Page clock' });
    const tick = () => {
      const text = `Page clock: ${seconds().toFixed(1)} s.`;
      if (clock.textContent !== text) clock.textContent = text;
    };
    const restart = () => {
      started = performance.now();
      tick();
    };
    const press = ctx.el('button', { type: 'button' }, 'Press');
    press.addEventListener('click', () => {
      const now = seconds();
      if (now >= from && now <= until) {
        ctx.say(`Pressed at ${now.toFixed(2)} s, inside the window.`);
        ctx.reveal();
        return;
      }
      ctx.lock(`Pressed at ${now.toFixed(1)} s, outside the window.`, restart);
    });
    const again = ctx.el('button', { type: 'button' }, 'Restart clock');
    again.addEventListener('click', restart);
    ctx.every(100, tick);
    tick();
    ctx.area.append(clock, press, ' ', again);
  },
});
