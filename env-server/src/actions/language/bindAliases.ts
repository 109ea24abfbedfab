import { pyRepr } from '../../python/repr.js';
import { ActionError, type ParsedCall } from '../types.js';

/**
 * Calls models often emit that BrowserGym lacks, decided one by one:
 *
 * - `scroll('down')` (also 'up', 'left', 'right') is honoured as `scroll(0, 300)` and friends.
 *   The intent is unambiguous and the real call is the same action with numbers. 300 px is a
 *   few wheel notches: far enough to reveal new content, short enough not to skip a section of
 *   a 720 px viewport. Only the one-argument form is rewritten; `scroll('down', 500)` stays an
 *   error rather than a guess.
 * - `send_keys(...)` is refused with a NameError that points at the real actions. It is
 *   ambiguous (type text or press a key? into which element?) and a wrong guess would corrupt
 *   an episode silently, where an error teaches the agent the right call in one step.
 */
export const SCROLL_STEP_PX = 300;

const SCROLL_DELTAS: Readonly<Record<string, readonly [number, number]>> = {
  down: [0, SCROLL_STEP_PX],
  up: [0, -SCROLL_STEP_PX],
  right: [SCROLL_STEP_PX, 0],
  left: [-SCROLL_STEP_PX, 0],
};

/** Rewrites an aliased call into the BrowserGym call it stands for; other calls pass through. */
export function resolveAlias(call: ParsedCall): ParsedCall {
  const [direction] = call.args;
  if (call.name !== 'scroll' || call.args.length !== 1 || typeof direction !== 'string') return call;
  if (Object.keys(call.kwargs).length > 0) return call;
  const deltas = Object.hasOwn(SCROLL_DELTAS, direction) ? SCROLL_DELTAS[direction] : undefined;
  if (deltas === undefined) {
    const choices = Object.keys(SCROLL_DELTAS)
      .map((name) => pyRepr(name))
      .join(', ');
    const message = `scroll() direction must be one of ${choices}, got ${pyRepr(direction)}`;
    throw new ActionError('ValueError', `${message} (or pass pixel deltas: scroll(delta_x, delta_y))`);
  }
  return { ...call, args: [...deltas] };
}

const SEND_KEYS_REPLACEMENTS: readonly (readonly [string, string])[] = [
  ['fill', 'fill(bid, value)'],
  ['press', 'press(bid, key_comb)'],
  ['keyboard_type', 'keyboard_type(text)'],
  ['keyboard_press', 'keyboard_press(key)'],
];

/** A hint appended to the NameError for a name that is not a BrowserGym action, or ''. */
export function unknownActionHint(name: string, allowed: ReadonlySet<string>): string {
  if (name !== 'send_keys') return '';
  const usable = SEND_KEYS_REPLACEMENTS.filter(([action]) => allowed.has(action)).map(([, signature]) => signature);
  const advice = usable.length > 0 ? `: use ${usable.join(' or ')}` : '';
  return ` (send_keys is not a BrowserGym action${advice})`;
}
