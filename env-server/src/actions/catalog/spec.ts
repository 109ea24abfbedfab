import type { Literal } from '../types.js';

// What an action declares (its name, parameters, subsets), apart from how it runs; the catalog,
// the definitions and the binder all read it.
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
