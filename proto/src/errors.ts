/**
 * The error hierarchy every service and client shares. `name` is the class name and travels over
 * the wire with `code`; `fromWire` rebuilds the same class on the other side.
 */
export type ErrorCode =
  | 'INVALID_JSON'
  | 'UNKNOWN_TYPE'
  | 'VALIDATION_ERROR'
  | 'EXECUTION_ERROR'
  | 'CAPACITY_REACHED'
  | 'FACTORY_ERROR'
  | 'SESSION_ERROR'
  | 'SESSION_NOT_FOUND'
  | 'INFRA_ERROR'
  | 'DEADLINE_EXCEEDED'
  | 'UNAUTHORIZED'
  | 'PAYLOAD_TOO_LARGE'
  | 'NOT_FOUND';

export interface WireError {
  name: string;
  message: string;
  code: ErrorCode;
  details?: Record<string, unknown>;
}

export class GauntletError extends Error {
  readonly code: ErrorCode;
  readonly details: Record<string, unknown> | undefined;
  /** HTTP status this error maps to at the HTTP boundary. */
  static readonly httpStatus: number = 500;

  constructor(code: ErrorCode, message: string, details?: Record<string, unknown>) {
    super(message);
    this.name = new.target.name;
    this.code = code;
    this.details = details;
  }

  get httpStatus(): number {
    return (this.constructor as typeof GauntletError).httpStatus;
  }

  toWire(): WireError {
    return {
      name: this.name,
      message: this.message,
      code: this.code,
      ...(this.details ? { details: this.details } : {}),
    };
  }
}

/** The request itself is wrong; fix the input and retry. */
export class ValidationError extends GauntletError {
  static override readonly httpStatus = 422;
  constructor(
    message: string,
    readonly issues: ValidationIssue[] = [],
  ) {
    super('VALIDATION_ERROR', message, issues.length ? { errors: issues } : undefined);
  }
}

/**
 * The request names a task this server does not serve (or a bare name several benchmarks share).
 * The message lists the choices once; the issue at `task_name` says only what is wrong.
 */
export class UnknownTaskError extends ValidationError {
  constructor(taskName: string, choices: readonly string[], ambiguous = false) {
    const what = ambiguous
      ? `Task name ${JSON.stringify(taskName)} is ambiguous`
      : `Unknown task ${JSON.stringify(taskName)}`;
    super(`${what}${ambiguous ? ':' : '. Available:'} ${choices.join(', ')}`, [
      { loc: ['body', 'task_name'], msg: what, type: 'value_error', input: taskName },
    ]);
  }
}

/**
 * A reset asks to open a page whose origin the env server does not allow (the `web` task's `url`
 * outside `--allow-origin`, or loopback not named exactly). The issue points at `options.url`.
 */
export class OriginRefusedError extends ValidationError {
  constructor(url: string, reason: string) {
    super(`options.url: ${reason}`, [
      { loc: ['body', 'options', 'url'], msg: reason, type: 'value_error', input: url },
    ]);
  }
}

export interface ValidationIssue {
  /** Path into the request, e.g. ["body", "seed"]. */
  loc: (string | number)[];
  msg: string;
  type: string;
  input?: unknown;
}

export class InvalidJsonError extends GauntletError {
  static override readonly httpStatus = 400;
  constructor(message: string) {
    super('INVALID_JSON', message);
  }
}

export class UnknownTypeError extends GauntletError {
  static override readonly httpStatus = 400;
  constructor(type: unknown) {
    super('UNKNOWN_TYPE', `Unknown message type: ${JSON.stringify(type)}`);
  }
}

/** The server is full: retry later or raise MAX_CONCURRENT_ENVS. */
export class CapacityError extends GauntletError {
  static override readonly httpStatus = 503;
  constructor(active: number, max: number) {
    super('CAPACITY_REACHED', `Server at capacity: ${active}/${max} sessions in use`, {
      active_sessions: active,
      max_sessions: max,
    });
  }
}

export class SessionNotFoundError extends GauntletError {
  static override readonly httpStatus = 404;
  constructor(sessionId: string, message?: string) {
    super(
      'SESSION_NOT_FOUND',
      message ?? `No session ${JSON.stringify(sessionId)} (closed, reaped after idling, or never opened)`,
    );
  }
}

/** The session cannot go on (closed or broken); open a new one. */
export class SessionError extends GauntletError {
  static override readonly httpStatus = 409;
  constructor(message: string) {
    super('SESSION_ERROR', message);
  }
}

/** Infrastructure failed (browser crashed, env unreachable): not the agent's fault, never a reward. */
export class InfraError extends GauntletError {
  static override readonly httpStatus = 503;
  constructor(message: string) {
    super('INFRA_ERROR', message);
  }
}

export class FactoryError extends GauntletError {
  static override readonly httpStatus = 500;
  constructor(message: string) {
    super('FACTORY_ERROR', message);
  }
}

export class ExecutionError extends GauntletError {
  static override readonly httpStatus: number = 500;
  constructor(message: string) {
    super('EXECUTION_ERROR', message);
  }
}

/**
 * The request does not fit the episode's state: a step before any reset or after the episode
 * ended. A conflict the client resolves by resetting (HTTP 409; gRPC FAILED_PRECONDITION), not a
 * server fault; the code stays EXECUTION_ERROR, as OpenEnv's clients know it.
 */
export class EpisodeStateError extends ExecutionError {
  static override readonly httpStatus = 409;
}

export class DeadlineExceededError extends GauntletError {
  static override readonly httpStatus = 504;
  constructor(message: string) {
    super('DEADLINE_EXCEEDED', message);
  }
}

export class UnauthorizedError extends GauntletError {
  static override readonly httpStatus = 401;
  constructor() {
    super('UNAUTHORIZED', 'Missing or wrong bearer token (send "Authorization: Bearer <token>")');
  }
}

/**
 * Too much data: a request over its size limit, or (with a message saying which) more requests or
 * unread replies than a connection or the server may buffer. HTTP 413, gRPC RESOURCE_EXHAUSTED.
 */
export class PayloadTooLargeError extends GauntletError {
  static override readonly httpStatus = 413;
  constructor(limitBytes: number, message = `Request larger than the ${limitBytes}-byte limit`) {
    super('PAYLOAD_TOO_LARGE', message);
  }
}

export class NotFoundError extends GauntletError {
  static override readonly httpStatus = 404;
  constructor(message: string) {
    super('NOT_FOUND', message);
  }
}

const byName: Record<string, new (...args: never[]) => GauntletError> = {
  ValidationError,
  UnknownTaskError,
  OriginRefusedError,
  InvalidJsonError,
  UnknownTypeError,
  CapacityError,
  SessionNotFoundError,
  SessionError,
  InfraError,
  FactoryError,
  ExecutionError,
  EpisodeStateError,
  DeadlineExceededError,
  UnauthorizedError,
  PayloadTooLargeError,
  NotFoundError,
};

/** The class each code is thrown as; OpenEnv's /ws error frames carry only the code. */
const nameByCode: Record<ErrorCode, string> = {
  INVALID_JSON: 'InvalidJsonError',
  UNKNOWN_TYPE: 'UnknownTypeError',
  VALIDATION_ERROR: 'ValidationError',
  EXECUTION_ERROR: 'ExecutionError',
  CAPACITY_REACHED: 'CapacityError',
  FACTORY_ERROR: 'FactoryError',
  SESSION_ERROR: 'SessionError',
  SESSION_NOT_FOUND: 'SessionNotFoundError',
  INFRA_ERROR: 'InfraError',
  DEADLINE_EXCEEDED: 'DeadlineExceededError',
  UNAUTHORIZED: 'UnauthorizedError',
  PAYLOAD_TOO_LARGE: 'PayloadTooLargeError',
  NOT_FOUND: 'NotFoundError',
};

/** Rebuilds a typed error from its wire form; unknown names become a plain GauntletError. */
export function errorFromWire(wire: WireError): GauntletError {
  const Known = byName[wire.name];
  const error: GauntletError = Known ? Object.create(Known.prototype) : Object.create(GauntletError.prototype);
  Object.assign(error, { name: wire.name, message: wire.message, code: wire.code, details: wire.details });
  if (error instanceof ValidationError)
    Object.assign(error, { issues: (wire.details?.errors as ValidationIssue[] | undefined) ?? [] });
  Object.defineProperty(error, 'stack', { value: `${wire.name}: ${wire.message}`, enumerable: false });
  return error;
}

/** Rebuilds a typed error from a code alone (e.g. an OpenEnv /ws error frame); extra fields become details. */
export function errorFromCode(
  code: string,
  message: string,
  details?: Record<string, unknown>,
  className?: unknown,
): GauntletError {
  const byCode = nameByCode[code as ErrorCode];
  // Our /ws frames also name the class: a subclass (EpisodeStateError) shares its parent's code.
  const named = typeof className === 'string' ? byName[className] : undefined;
  const parent = byCode ? byName[byCode] : undefined;
  const isSubclass =
    named !== undefined && parent !== undefined && (named === parent || named.prototype instanceof parent);
  const name = isSubclass ? (className as string) : (byCode ?? 'GauntletError');
  return errorFromWire({
    name,
    message,
    code: code as ErrorCode,
    ...(details && Object.keys(details).length ? { details } : {}),
  });
}
