import { ACTION_NAMES, BID_ARGUMENTS } from '../wire/action-names.js';
import type { StepResult } from '../wire/observation.js';
import { actionRegex } from './action-regex.js';
import { quotedValues } from './goal-quotes.js';
import { observationBids } from './observation-bids.js';

export interface TurnRegexOptions {
  /** Actions allowed (default: every BrowserGym action). */
  names?: readonly string[];
  /** Several calls, one per line. */
  multiAction?: boolean;
  /** Element arguments name only the bids the observation shows. */
  bidChoices?: boolean;
  /** `fill` and `select_option` take only one of the goal's double-quoted values (free when it quotes none). */
  textChoices?: boolean;
}

/**
 * The constrained-decoding regex for one turn, narrowed by what this observation shows: its
 * elements (bid choices) and its goal's quoted values (text choices). A page with no element to
 * name leaves only the actions that need none (noop, at least).
 */
export function turnRegex(result: StepResult, options: TurnRegexOptions): string {
  const every = options.names ?? ACTION_NAMES;
  const texts = options.textChoices ? quotedValues(result.observation.goal) : undefined;
  const multiAction = options.multiAction ?? false;
  if (!options.bidChoices) return actionRegex({ names: every, multiAction, ...(texts ? { texts } : {}) });
  const bids = observationBids(result);
  const allowed = bids.length ? every : every.filter((n) => !(n in BID_ARGUMENTS));
  return actionRegex({ names: allowed.length ? allowed : ['noop'], bids, multiAction, ...(texts ? { texts } : {}) });
}
