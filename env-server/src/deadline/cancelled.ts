import { SessionError } from '@gauntlet/proto';

/**
 * The caller went away (disconnected, or cancelled its call) while its step or reset ran: the
 * work stops and nobody reads the answer. It is not a failure of the environment, so metrics
 * count it as `cancelled`, never as an error.
 */
export class CancelledError extends SessionError {
  constructor(message = 'the caller cancelled the call') {
    super(message);
  }
}
