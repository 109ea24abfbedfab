import { GauntletError, PayloadTooLargeError, ValidationError, NotFoundError } from '@gauntlet/proto';

/** OpenAI's (and vLLM's) error body: clients such as the `openai` npm package read `error.message`. */
export interface OpenAiErrorBody {
  error: { message: string; type: string; param: string | null; code: number };
}

/** A request the server refuses with a 400 and a message that says what to change. */
export class BadRequestError extends GauntletError {
  static override readonly httpStatus = 400;
  constructor(
    message: string,
    readonly param: string | null = null,
  ) {
    super('VALIDATION_ERROR', message);
  }
}

/** The server cannot serve now; the message says why (GET /health). */
export class ServiceUnavailableError extends GauntletError {
  static override readonly httpStatus = 503;
  constructor(message: string) {
    super('INFRA_ERROR', message);
  }
}

export { NotFoundError, PayloadTooLargeError, ValidationError };

/** vLLM's `error.type` by status, whichever of our errors it came from. */
const ERROR_TYPES: Record<number, string> = {
  400: 'BadRequestError',
  401: 'AuthenticationError',
  404: 'NotFoundError',
  413: 'BadRequestError',
  503: 'ServiceUnavailableError',
};

/** Status and body for any error; an unexpected one is a 500 that says nothing of its insides (the server logs it). */
export function toOpenAiError(error: unknown): { status: number; body: OpenAiErrorBody } {
  if (error instanceof GauntletError) {
    const status = error instanceof ValidationError ? 400 : error.httpStatus;
    const param = error instanceof BadRequestError ? error.param : null;
    return {
      status,
      body: { error: { message: error.message, type: ERROR_TYPES[status] ?? error.name, param, code: status } },
    };
  }
  return {
    status: 500,
    body: {
      error: {
        message: 'internal error (the server log has the details)',
        type: 'InternalServerError',
        param: null,
        code: 500,
      },
    },
  };
}
