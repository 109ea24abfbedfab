import { pyNumber, pyStr } from '../python/repr.js';
import type { PageInput } from './record-in-page.js';

/**
 * The BrowserGym action for one input of the person, or undefined when it cannot be written as
 * one (an element outside every marked one, an empty scroll). Keys pressed with no element in
 * focus become keyboard_press.
 */
export function actionFor(input: PageInput): string | undefined {
  const bid = typeof input.bid === 'string' && input.bid !== '' ? pyStr(input.bid) : undefined;
  switch (input.kind) {
    case 'click':
    case 'dblclick':
      return bid && `${input.kind}(${bid})`;
    case 'fill':
      return bid && `fill(${bid}, ${pyStr(String(input.value ?? ''))})`;
    case 'select': {
      const values = (input.values ?? []).map((v) => pyStr(String(v)));
      if (!bid || values.length === 0) return undefined;
      return `select_option(${bid}, ${values.length === 1 ? values[0] : `[${values.join(', ')}]`})`;
    }
    case 'press':
      if (typeof input.key !== 'string' || input.key === '') return undefined;
      return bid ? `press(${bid}, ${pyStr(input.key)})` : `keyboard_press(${pyStr(input.key)})`;
    case 'scroll': {
      const dx = Math.round(Number(input.dx) || 0);
      const dy = Math.round(Number(input.dy) || 0);
      return dx === 0 && dy === 0 ? undefined : `scroll(${pyNumber(dx)}, ${pyNumber(dy)})`;
    }
    case 'drag': {
      const to = typeof input.to === 'string' && input.to !== '' ? pyStr(input.to) : undefined;
      return bid && to && bid !== to ? `drag_and_drop(${bid}, ${to})` : undefined;
    }
    default:
      return undefined;
  }
}
