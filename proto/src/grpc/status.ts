import { Metadata, status as Status, type ServiceError, type StatusObject } from '@grpc/grpc-js';
import {
  DeadlineExceededError,
  ExecutionError,
  GauntletError,
  InfraError,
  UnauthorizedError,
  ValidationError,
  errorFromWire,
  type ErrorCode,
  type WireError,
} from '../errors.js';

/** Initial metadata of a Session stream: the id of the session the stream holds. */
export const SESSION_ID_METADATA = 'x-session-id';
/** Trailing metadata holding the typed error as JSON `{name, message, code, details}`. */
export const ERROR_METADATA = 'gauntlet-error-bin';

/** One table from error code to gRPC status; a new code fails to compile until it is mapped. */
export const GRPC_STATUS: Record<ErrorCode, Status> = {
  VALIDATION_ERROR: Status.INVALID_ARGUMENT,
  INVALID_JSON: Status.INVALID_ARGUMENT,
  UNKNOWN_TYPE: Status.INVALID_ARGUMENT,
  SESSION_NOT_FOUND: Status.NOT_FOUND,
  NOT_FOUND: Status.NOT_FOUND,
  CAPACITY_REACHED: Status.RESOURCE_EXHAUSTED,
  PAYLOAD_TOO_LARGE: Status.RESOURCE_EXHAUSTED,
  INFRA_ERROR: Status.UNAVAILABLE,
  FACTORY_ERROR: Status.UNAVAILABLE,
  DEADLINE_EXCEEDED: Status.DEADLINE_EXCEEDED,
  // Step before reset, a finished episode: the call is fine, the session is not ready for it.
  EXECUTION_ERROR: Status.FAILED_PRECONDITION,
  // The server closed the session: retry at a higher level, with a new session.
  SESSION_ERROR: Status.ABORTED,
  UNAUTHORIZED: Status.UNAUTHENTICATED,
};

/** The status a server sends for a typed error; anything untyped is INTERNAL without a stack. */
export function statusForError(error: unknown): Partial<StatusObject> {
  const typed =
    error instanceof GauntletError
      ? error
      : new ExecutionError(`Internal error: ${(error as Error)?.message ?? String(error)}`);
  const metadata = new Metadata();
  metadata.set(ERROR_METADATA, Buffer.from(JSON.stringify(typed.toWire())));
  const code = error instanceof GauntletError ? (GRPC_STATUS[typed.code] ?? Status.UNKNOWN) : Status.INTERNAL;
  return { code, details: typed.message, metadata };
}

/**
 * Rebuilds the typed error of a failed call: from trailing metadata when our server sent it, else
 * from the status grpc-js itself produced (unreachable server, client deadline, oversize message).
 */
export function errorFromStatus(
  error: Pick<ServiceError, 'code' | 'details' | 'metadata'>,
  target = 'the env server',
): GauntletError {
  const wire = error.metadata?.get(ERROR_METADATA)[0];
  if (wire) {
    try {
      return errorFromWire(JSON.parse(Buffer.isBuffer(wire) ? wire.toString() : wire) as WireError);
    } catch {
      // A proxy mangled the metadata; fall back to the status below.
    }
  }
  const details = error.details || Status[error.code];
  switch (error.code) {
    case Status.DEADLINE_EXCEEDED:
      return new DeadlineExceededError(`gRPC deadline exceeded: ${details}`);
    case Status.UNAVAILABLE:
      return new InfraError(`${target} is unreachable: ${details}`);
    case Status.RESOURCE_EXHAUSTED:
      return errorFromWire({ name: 'PayloadTooLargeError', code: 'PAYLOAD_TOO_LARGE', message: details });
    case Status.UNAUTHENTICATED:
      return new UnauthorizedError();
    case Status.INVALID_ARGUMENT:
      return new ValidationError(details);
    default:
      return new ExecutionError(`gRPC ${Status[error.code] ?? error.code}: ${details}`);
  }
}
