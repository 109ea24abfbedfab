import {
  ExecutionError,
  GauntletError,
  InvalidJsonError,
  PayloadTooLargeError,
  ValidationError,
} from '@gauntlet/proto';

/** Anything thrown inside a request becomes a typed error; unknown failures never leak stack traces. */
export function toGauntletError(error: unknown, limits: { bodyLimitBytes: number }): GauntletError {
  if (error instanceof GauntletError) return error;
  const code = (error as { code?: string }).code;
  if (code === 'FST_ERR_CTP_BODY_TOO_LARGE') return new PayloadTooLargeError(limits.bodyLimitBytes);
  if (code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error instanceof SyntaxError)
    return new InvalidJsonError(`Body is not valid JSON: ${(error as Error).message}`);
  if (code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE')
    return new ValidationError('Send a JSON body with Content-Type: application/json');
  if (code === 'FST_ERR_CTP_EMPTY_JSON_BODY')
    return new InvalidJsonError('Body is empty but Content-Type says JSON; send {} or omit the header');
  return new ExecutionError(`Internal error: ${(error as Error)?.message ?? String(error)}`);
}

/** HTTP body for an error: FastAPI's `{detail}` (a list for 422s, as OpenEnv clients expect) plus our typed `error`. */
export function httpErrorBody(error: GauntletError): { status: number; body: Record<string, unknown> } {
  if (error instanceof ValidationError) {
    return {
      status: 422,
      body: {
        detail: error.issues.length
          ? error.issues
          : [{ type: 'value_error', loc: ['body'], msg: error.message, input: null }],
        error: error.toWire(),
      },
    };
  }
  if (error instanceof InvalidJsonError) {
    return {
      status: 422,
      body: {
        detail: [{ type: 'json_invalid', loc: ['body', 0], msg: error.message, input: {} }],
        error: error.toWire(),
      },
    };
  }
  return { status: error.httpStatus, body: { detail: error.message, error: error.toWire() } };
}
