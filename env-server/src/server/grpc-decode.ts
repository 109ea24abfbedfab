import type { MethodDefinition, ServiceDefinition } from '@grpc/grpc-js';
import { ValidationError } from '@gauntlet/proto';

const MALFORMED = Symbol('malformed message');

interface Malformed {
  [MALFORMED]: string;
}

/**
 * grpc-js answers bytes that do not decode with INTERNAL. Bad input is the caller's mistake, so
 * decoding failures are kept as a marker and reported by the handler as INVALID_ARGUMENT.
 */
export function withCleanDecodeErrors(definition: ServiceDefinition): ServiceDefinition {
  const wrapped: Record<string, MethodDefinition<unknown, unknown>> = {};
  for (const [name, method] of Object.entries(definition)) {
    wrapped[name] = {
      ...method,
      requestDeserialize: (bytes: Buffer) => {
        try {
          return method.requestDeserialize(bytes);
        } catch (error) {
          return { [MALFORMED]: (error as Error).message } satisfies Malformed;
        }
      },
    };
  }
  return wrapped;
}

/** Throws INVALID_ARGUMENT for a request that did not decode. */
export function assertDecoded(request: unknown, what: string): void {
  const reason = (request as Partial<Malformed> | null)?.[MALFORMED];
  if (reason !== undefined)
    throw new ValidationError(`Malformed ${what} message (not a valid protobuf encoding): ${reason}`);
}
