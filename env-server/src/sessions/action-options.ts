import { ValidationError } from '@gauntlet/proto';
import { DEFAULT_SUBSETS, resolveSubsets } from '../actions/catalog/catalog.js';
import type { ServerConfig } from '../config.js';
import type { ActionOptions } from './episode.js';

export function resolveActionOptions(
  requested:
    { subsets?: string[] | undefined; strict?: boolean | undefined; multi_action?: boolean | undefined } | undefined,
  config: ServerConfig,
): ActionOptions {
  let subsets: Set<string>;
  try {
    subsets = resolveSubsets(requested?.subsets ?? DEFAULT_SUBSETS);
  } catch (error) {
    const message = (error as Error).message;
    throw new ValidationError(message, [
      { loc: ['body', 'action_set', 'subsets'], msg: message, type: 'value_error', input: requested?.subsets },
    ]);
  }
  return {
    subsets,
    strict: requested?.strict ?? false,
    multiAction: requested?.multi_action ?? true,
    maxChars: config.maxActionChars,
    maxCalls: config.maxCallsPerStep,
  };
}
