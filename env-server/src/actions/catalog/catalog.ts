import { pyRepr } from '../../python/repr.js';
import { ACTIONS } from './actions.js';
import type { Literal } from '../types.js';
import type { ActionDefinition } from './define.js';

export { ACTIONS };
export { defineAction, type ActionDefinition, type ActionHandler, type Params } from './define.js';
export { DEFAULT_SUBSETS, PRESETS, SUBSETS, resolveSubsets } from './subsets.js';

export type ParamKind = 'string' | 'number' | 'int' | 'bool' | 'list' | 'string_or_list' | 'any';
export type SubsetName = 'noop' | 'chat' | 'infeas' | 'bid' | 'coord' | 'nav' | 'tab';

export interface ParamSpec {
  readonly name: string;
  readonly kind: ParamKind;
  /** Present exactly when the parameter is optional. */
  readonly default?: Literal;
  /** Allowed values: of the value itself for 'string', of every item for 'list'. */
  readonly allowed?: readonly string[];
  /** An element id: a non-string gets BrowserGym's own `expected a string, got …`. */
  readonly bid?: boolean;
  /** Inclusive bounds of a 'number' (see ranges.ts); anything outside is a ValueError before the browser sees it. */
  readonly range?: NumberRange;
  /** A Playwright key or key combination: capped in keys and characters (see ranges.ts KEY_CHORD). */
  readonly keys?: boolean;
}

export type NumberRange = readonly [min: number, max: number];

export interface ActionSpec {
  readonly name: string;
  readonly params: readonly ParamSpec[];
  /** Usually one; `scroll` is in both 'bid' and 'coord', as in BrowserGym. */
  readonly subsets: readonly SubsetName[];
  /** One line for prompts and docs. */
  readonly description: string;
  /** Calls that must parse and bind, shown to models in prompts. */
  readonly examples: readonly string[];
  /**
   * Whether executing it evaluates script in the page, which operators may switch off
   * (ActionContext.allowScriptActions). No BrowserGym action does: all are Playwright input.
   */
  readonly needsScript: boolean;
}

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
