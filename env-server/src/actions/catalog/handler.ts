import type { ActionContext } from '../context.js';
import type { Literal } from '../types.js';

export type Params = Record<string, Literal>;

/** One action's implementation. Parameters arrive bound and type-checked by the binder. */
export interface ActionHandler {
  /** False for actions that never touch a page (chat, noop): they skip settling. */
  touchesPage: boolean;
  /** Wheel scrolling lands on the compositor's next frame; such actions settle one animation frame. */
  settlesOnFrame?: boolean;
  run(params: Params, ctx: ActionContext): Promise<void>;
}

/** The handler table of one action subset, keyed by BrowserGym's action name. */
export type HandlerTable = Record<string, ActionHandler>;
