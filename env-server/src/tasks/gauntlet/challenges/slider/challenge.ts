import { defineChallenge } from '../../challenge.js';
import { WORDS } from '../words.js';

interface Params {
  label: string;
  max: number;
  start: number;
  target: number;
}

/**
 * A keyboard slider (a `role="slider"` widget, not a range input, so no single fill sets it):
 * arrow keys move it by 1, Page Up/Down by 10. Its value must be read and stepped to the target;
 * "Confirm" at any other value locks the puzzle.
 */
export const slider = defineChallenge<Params>({
  type: 'slider',
  title: 'Slider',
  generate(rng) {
    const max = rng.pick([50, 100]);
    const start = rng.int(0, max);
    let target = rng.int(0, max);
    while (Math.abs(target - start) < 5) target = rng.int(0, max);
    return { label: `${rng.pick(WORDS)} level`, max, start, target };
  },
  render: (ctx) => {
    const { label, max, start, target } = ctx.params;
    ctx.instruct(
      `Set the "${label}" slider to exactly ${target} (it runs from 0 to ${max}), then press "Confirm". Focus it and use the keys: ArrowRight/ArrowLeft move it by 1, PageUp/PageDown by 10. Confirming any other value locks the puzzle.`,
    );
    let value = start;
    const knob = ctx.el('div', {
      role: 'slider',
      tabindex: 0,
      'aria-label': label,
      'aria-valuemin': 0,
      'aria-valuemax': max,
      class: 'knob-track',
    });
    const shown = ctx.el('output', {});
    const draw = () => {
      knob.setAttribute('aria-valuenow', String(value));
      knob.setAttribute('aria-valuetext', String(value));
      knob.style.setProperty('--at', `${(value / max) * 100}%`);
      shown.textContent = `Current value: ${value}`;
    };
    const steps: Record<string, number> = {
      ArrowRight: 1,
      ArrowUp: 1,
      ArrowLeft: -1,
      ArrowDown: -1,
      PageUp: 10,
      PageDown: -10,
    };
    knob.addEventListener('keydown', (event) => {
      const by = steps[(event as KeyboardEvent).key];
      if (by === undefined) return;
      event.preventDefault();
      value = Math.max(0, Math.min(max, value + by));
      draw();
    });
    const confirm = ctx.el('button', { type: 'button' }, 'Confirm');
    confirm.addEventListener('click', () => {
      if (value !== target) return ctx.lock(`${value} is not the value asked for.`);
      ctx.say(`Set to ${target}.`);
      ctx.reveal();
    });
    draw();
    ctx.area.append(ctx.el('p', {}, `${label}`), knob, ' ', shown, ' ', confirm);
  },
  css: `.puzzle .knob-track { display: inline-block; width: 320px; height: 14px; vertical-align: middle; background: linear-gradient(90deg, #36c var(--at), #ccd var(--at)); border-radius: 7px; }`,
});
