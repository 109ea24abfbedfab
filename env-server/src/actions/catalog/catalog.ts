import { pyRepr } from '../../python/repr.js';
import { ACTIONS } from './actions.js';
import type { ActionDefinition } from './define.js';
import type { ActionSpec } from './spec.js';

export { ACTIONS };
export { defineAction, type ActionDefinition, type ActionHandler, type Params } from './define.js';
export { DEFAULT_SUBSETS, PRESETS, SUBSETS, resolveSubsets } from './subsets.js';
export type { ActionSpec, NumberRange, ParamKind, ParamSpec, SubsetName } from './spec.js';

const BY_NAME: ReadonlyMap<string, ActionDefinition> = new Map(ACTIONS.map((action) => [action.name, action]));

/** The action of this name: its spec (for the binder) and its implementation (for the executor). */
export function findAction(name: string): ActionDefinition | undefined {
  return BY_NAME.get(name);
}

/** The Python signature, e.g. `click(bid, button='left', modifiers=[])`, for prompts. */
export function formatSignature(spec: ActionSpec): string {
  const params = spec.params.map((p) => (p.default === undefined ? p.name : `${p.name}=${pyRepr(p.default)}`));
  return `${spec.name}(${params.join(', ')})`;
}
