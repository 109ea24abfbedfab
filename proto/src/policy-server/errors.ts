import { ExecutionError, GauntletError, InfraError } from '../errors.js';

/**
 * The policy server could not answer: connection refused or reset, or a 5xx. Transient, so the
 * client retries it with backoff; an episode that still meets it ends as `infra_error`.
 */
export class PolicyUnavailableError extends InfraError {
  constructor(
    message: string,
    /** The HTTP status, or 0 when no reply came (connection error). */
    readonly status: number,
  ) {
    super(message);
  }
}

/**
 * The server refused the request (4xx): a wrong model name, a prompt over max_model_len, a bad
 * field. Retrying the same request cannot help; fix the request or the configuration.
 */
export class PolicyRequestError extends GauntletError {
  static override readonly httpStatus = 400;
  constructor(
    message: string,
    readonly status: number,
    /** The request field the server blamed, when it said. */
    readonly param: string | null = null,
  ) {
    super(status === 404 ? 'NOT_FOUND' : 'VALIDATION_ERROR', message, { status, ...(param ? { param } : {}) });
  }
}

/**
 * The server answered 2xx with something this client cannot use: not JSON, not the reply's
 * shape, or without what was asked for (token ids, logprobs) — usually a server too old for
 * `return_token_ids`.
 */
export class PolicyReplyError extends ExecutionError {}
