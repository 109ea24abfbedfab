import type { SubsetName } from './spec.js';
import { ACTIONS } from './actions.js';

export const SUBSETS: readonly SubsetName[] = ['noop', 'chat', 'infeas', 'bid', 'coord', 'nav', 'tab'];

/** BrowserGym's default: everything but coordinates. */
export const DEFAULT_SUBSETS: readonly SubsetName[] = ['chat', 'infeas', 'bid', 'nav', 'tab'];

/** Named action sets (subset names or action names), as BrowserGym's `subsets=` presets. */
export const PRESETS: Readonly<Record<string, readonly string[]>> = {
  default: DEFAULT_SUBSETS,
  miniwob_all: [
    'mouse_move',
    'mouse_click',
    'mouse_dblclick',
    'mouse_down',
    'mouse_up',
    'scroll',
    'click',
    'keyboard_press',
    'keyboard_type',
    'fill',
  ],
};

/**
 * The action names enabled by a list of subset and preset names; `noop` is always enabled.
 * Throws an Error naming the valid choices for an unknown name (operator configuration, so a
 * plain Error, not an ActionError).
 */
export function resolveSubsets(names: readonly string[]): Set<string> {
  const enabled = new Set<string>(['noop']);
  const unknown: string[] = [];
  for (const name of names) {
    const preset = Object.hasOwn(PRESETS, name) ? PRESETS[name] : undefined;
    if (preset !== undefined) preset.forEach((item) => addSubsetOrAction(item, enabled));
    else if (isSubset(name)) addSubsetOrAction(name, enabled);
    else unknown.push(name);
  }
  if (unknown.length > 0) {
    const quoted = unknown.map((name) => `'${name}'`).join(', ');
    const noun = unknown.length > 1 ? 'subsets' : 'subset';
    throw new Error(
      `Unknown action ${noun} ${quoted}. Valid subsets: ${SUBSETS.join(', ')}; presets: ${Object.keys(PRESETS).join(', ')}.`,
    );
  }
  return enabled;
}

function isSubset(name: string): name is SubsetName {
  return (SUBSETS as readonly string[]).includes(name);
}

function addSubsetOrAction(name: string, enabled: Set<string>): void {
  if (!isSubset(name)) {
    enabled.add(name);
    return;
  }
  for (const spec of ACTIONS) if (spec.subsets.includes(name)) enabled.add(spec.name);
}
