import { defineChallenge } from '../challenge.js';
import { WORDS } from './words.js';

interface Params {
  label: string;
  max: number;
  start: number;
  target: number;
}

/** Set a range slider to the stated value; the code unlocks when the value is committed there. */
export const slider = defineChallenge<Params>({
  type: 'slider',
  title: 'Slider',
  generate(rng) {
    const max = rng.pick([20, 50, 100]);
    const start = rng.int(0, max);
    let target = rng.int(0, max);
    while (target === start) target = rng.int(0, max);
    return { label: `${rng.pick(WORDS)} level`, max, start, target };
  },
  render: (ctx) => {
    const { label, max, start, target } = ctx.params;
    ctx.instruct(
      `Set the "${label}" slider to exactly ${target} (it runs from 0 to ${max}). The code unlocks when the slider is set to that value.`,
    );
    const input = ctx.el('input', {
      type: 'range',
      min: 0,
      max,
      step: 1,
      value: start,
      'aria-label': label,
    }) as HTMLInputElement;
    const shown = ctx.el('output', {}, `Current value: ${start}`);
    let unlocked = false;
    input.addEventListener('input', () => {
      shown.textContent = `Current value: ${input.value}`;
    });
    input.addEventListener('change', () => {
      shown.textContent = `Current value: ${input.value}`;
      if (unlocked || Number(input.value) !== target) return;
      unlocked = true;
      ctx.say(`Set to ${target}.`);
      ctx.reveal();
    });
    ctx.area.append(ctx.el('label', {}, `${label} `, input), ' ', shown);
  },
  css: `.puzzle input[type="range"] { width: 320px; vertical-align: middle; }`,
});
