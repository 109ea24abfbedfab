import type { z } from 'zod';
import { errorFromWire, type ErrorCode, type GauntletError, type WireError } from '../errors.js';
import type { Action } from '../wire/action.js';
import type { ResetRequest, StepRequest } from '../wire/requests.js';
import type * as pb from './messages.js';
import { fromStruct, toStruct } from './struct.js';

/**
 * Requests: the client turns a validated JSON request into a message; the server turns a message
 * back into the JSON body the EnvService validates with the same zod schema as HTTP and /ws.
 * `satisfies` keeps field names checked against the zod types at compile time.
 */
export function resetRequestToMessage(request: ResetRequest): pb.ResetRequest {
  const { seed, episode_id, task_name, observation, options, action_set, session_id, browser } = request;
  return {
    ...(seed === undefined ? {} : { seed }),
    ...(episode_id === undefined ? {} : { episode_id }),
    ...(task_name === undefined ? {} : { task_name }),
    ...(observation ? { observation } : {}),
    ...(options ? { options: toStruct(options) } : {}),
    ...(action_set ? { action_set: { ...action_set, subsets: action_set.subsets ?? [] } } : {}),
    session_id: session_id ?? '',
    ...(browser ? { browser } : {}),
  };
}

/** The JSON body for EnvService.reset (session_id is the transport's business, so it is left out). */
export function resetBodyFromMessage(message: pb.ResetRequestOut): z.input<typeof ResetRequest> {
  const { observation, action_set, browser } = message;
  return {
    ...(message.seed === undefined ? {} : { seed: message.seed }),
    ...(message.episode_id === undefined ? {} : { episode_id: message.episode_id }),
    ...(message.task_name === undefined ? {} : { task_name: message.task_name }),
    ...(observation ? { observation: definedOnly(observation) as z.input<typeof ResetRequest>['observation'] } : {}),
    ...(message.options ? { options: fromStruct(message.options) } : {}),
    ...(action_set
      ? {
          action_set: {
            ...definedOnly({ strict: action_set.strict, multi_action: action_set.multi_action }),
            ...(action_set.subsets.length ? { subsets: action_set.subsets } : {}),
          },
        }
      : {}),
    ...(browser ? { browser: definedOnly(browser) } : {}),
  };
}

export function stepRequestToMessage(action: Action, timeoutS: number | undefined): pb.StepRequest {
  return {
    action: { action_str: action.action_str, metadata: toStruct(action.metadata) },
    ...(timeoutS === undefined ? {} : { timeout_s: timeoutS }),
  };
}

/** The JSON body for EnvService.step; a missing action stays missing so validation names it. */
export function stepBodyFromMessage(message: pb.StepRequestOut, deadlineS?: number): Record<string, unknown> {
  const timeout = [message.timeout_s, deadlineS].filter((s): s is number => s !== undefined);
  const body = {
    ...(message.action
      ? { action: { action_str: message.action.action_str, metadata: fromStruct(message.action.metadata) } }
      : {}),
    ...(timeout.length ? { timeout_s: Math.min(...timeout) } : {}),
    ...(message.request_id === undefined ? {} : { request_id: message.request_id }),
  } satisfies Partial<z.input<typeof StepRequest>>;
  return body;
}

export function errorToMessage(error: WireError): pb.Error {
  return {
    name: error.name,
    message: error.message,
    code: error.code,
    ...(error.details ? { details: toStruct(error.details) } : {}),
  };
}

export function errorFromMessage(message: pb.ErrorOut): GauntletError {
  const details = message.details ? fromStruct(message.details) : undefined;
  return errorFromWire({
    name: message.name,
    message: message.message,
    code: message.code as ErrorCode,
    ...(details ? { details } : {}),
  });
}

/** Drops the keys proto3 `optional` left undefined, so zod sees them as absent. */
function definedOnly<T extends object>(object: T): Partial<T> {
  return Object.fromEntries(
    Object.entries(object).filter(([key, value]) => value !== undefined && !key.startsWith('_')),
  ) as Partial<T>;
}
