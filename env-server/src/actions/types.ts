import type { Literal } from '../python/literal.js';

// The literal lives with the Python rendering below the actions, which observe/ shares; the
// action language names it here too.
export type { Literal };

/** One call as written, e.g. `click('12', button='right')`. */
export interface ParsedCall {
  name: string;
  args: Literal[];
  kwargs: Record<string, Literal>;
  /** The exact source text of the call, for logs and `last_action`. */
  source: string;
}

/** A call bound to its action's parameters (defaults filled in, types checked). */
export interface BoundAction {
  name: string;
  params: Record<string, Literal>;
  source: string;
}

/**
 * An action failure the agent should see as `last_action_error` ("<type>: <message>"), in
 * BrowserGym's shape. Anything else thrown during a step is an infrastructure problem.
 */
export class ActionError extends Error {
  constructor(
    readonly pythonType:
      'ValueError' | 'NameError' | 'TypeError' | 'TimeoutError' | 'SyntaxError' | 'PermissionError' | 'Error',
    message: string,
  ) {
    super(message);
    this.name = 'ActionError';
  }

  /** The text BrowserGym puts in `last_action_error`. */
  get display(): string {
    return `${this.pythonType}: ${this.message}`;
  }
}
