import type { ActionName } from '@gauntlet/proto/agent';
import type { ActionContext } from '../context.js';
import type { Literal } from '../types.js';
import type { ActionSpec, ParamSpec, SubsetName } from './spec.js';

export type Params = Record<string, Literal>;

/** One action's implementation. Parameters arrive bound and checked against the action's `params` by the binder. */
export interface ActionHandler {
  /** False for actions that never touch a page (chat, noop): they skip settling. */
  readonly touchesPage: boolean;
  /** Wheel scrolling lands on the compositor's next frame; such actions settle one animation frame. */
  readonly settlesOnFrame?: boolean;
  run(params: Params, ctx: ActionContext): Promise<void>;
}

/** A catalog entry and its implementation in one object, so no action can exist without the other. */
export interface ActionDefinition extends ActionSpec, ActionHandler {}

export interface ActionDeclaration<N extends ActionName = ActionName> extends ActionHandler {
  /** One of proto's ACTION_NAMES: the names an agent may emit are declared there. */
  readonly name: N;
  /** Usually one; `scroll` is in both 'bid' and 'coord', as in BrowserGym. */
  readonly subsets: SubsetName | readonly SubsetName[];
  /** Types, defaults, allowed values and number ranges: the binder checks every argument against these. */
  readonly params: readonly ParamSpec[];
  readonly description: string;
  readonly examples: readonly string[];
  /** Defaults to false: no BrowserGym action evaluates script in the page. */
  readonly needsScript?: boolean;
}

/** Declares one action: what the agent may write (name, parameters, subsets, docs) and what running it does. */
export function defineAction<const N extends ActionName>(
  declaration: ActionDeclaration<N>,
): ActionDefinition & { readonly name: N } {
  const subsets: readonly SubsetName[] =
    typeof declaration.subsets === 'string' ? [declaration.subsets] : declaration.subsets;
  return Object.freeze({ ...declaration, subsets, needsScript: declaration.needsScript ?? false });
}
