import { defineChallenge } from '../challenge.js';

interface Params {
  delayMs: number;
}

/** Wait out a countdown; pressing Reveal early restarts it. */
export const timer = defineChallenge<Params>({
  type: 'timer',
  title: 'Timer',
  generate: (rng) => ({ delayMs: rng.round(100, 400, 50) }),
  render: (ctx) => {
    const { delayMs } = ctx.params;
    ctx.instruct(
      `The code unlocks ${delayMs} ms after the countdown starts; it starts when this step opens. Press "Reveal code" once the countdown has finished. Pressing it early restarts the countdown.`,
    );
    let round = 0;
    let ready = false;
    const startCountdown = () => {
      const mine = ++round;
      ready = false;
      ctx.later(delayMs, () => {
        if (mine !== round) return;
        ready = true;
        ctx.say('Countdown finished.');
      });
    };
    const button = ctx.el('button', { type: 'button' }, 'Reveal code');
    button.addEventListener('click', () => {
      if (ready) {
        ctx.say('Unlocked.');
        ctx.reveal();
        return;
      }
      ctx.fail(`Too early: the countdown restarted (${delayMs} ms).`);
      startCountdown();
    });
    ctx.area.append(button);
    ctx.say('Countdown running.');
    startCountdown();
  },
});
