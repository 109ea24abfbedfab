import { GauntletError } from '@gauntlet/proto';

/** The model server cannot be reached at all (refused, DNS, TLS) even after the retries: the run stops. */
export class ModelUnreachableError extends GauntletError {
  static override readonly httpStatus = 503;
  constructor(message: string) {
    super('INFRA_ERROR', message);
  }
}

/** The model server refused the key (401/403): the run stops, naming --api-key. */
export class ModelAuthError extends GauntletError {
  static override readonly httpStatus = 401;
  constructor(message: string) {
    super('UNAUTHORIZED', message);
  }
}

/** The server refused the request itself (a 4xx other than 429: unknown model, bad parameter). */
export class ModelRequestError extends GauntletError {
  static override readonly httpStatus = 400;
  constructor(message: string) {
    super('VALIDATION_ERROR', message);
  }
}

/** 429/5xx or a call timeout that outlasted every retry: this episode ends as infra_error. */
export class ModelBusyError extends GauntletError {
  static override readonly httpStatus = 503;
  constructor(message: string) {
    super('INFRA_ERROR', message);
  }
}

/** Errors after which no further episode can do better: the run stops with their one line. */
export const RUN_STOPPING_ERRORS = new Set(['ModelUnreachableError', 'ModelAuthError', 'ModelRequestError']);
