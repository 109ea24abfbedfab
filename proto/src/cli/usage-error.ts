import { GauntletError } from '../errors.js';

/** The command line is wrong (exit code 2); the one-line message names the flag and says how to fix it. */
export class UsageError extends GauntletError {
  static override readonly httpStatus = 400;
  constructor(
    message: string,
    /** The flag at fault, without dashes, when one is. */
    readonly flag?: string,
  ) {
    super('VALIDATION_ERROR', message);
  }
}

export const EXIT_OK = 0;
export const EXIT_FAILURE = 1;
export const EXIT_USAGE = 2;
export const EXIT_INTERRUPTED = 130;
