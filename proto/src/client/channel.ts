import { SessionError, type GauntletError } from '../errors.js';
import type { Action } from '../wire/action.js';
import type { StepResult } from '../wire/observation.js';
import type { RecordReply, RecordRequest } from '../wire/record.js';
import type { ResetRequest } from '../wire/requests.js';
import type { State } from '../wire/state.js';
import type { CallContext } from './call.js';
import type { TransportName } from './types.js';

/** One open session on one transport. Requests arrive validated; replies are not yet checked. */
export interface SessionChannel {
  readonly sessionId: string;
  /** Set once the session is gone (connection dropped, server restarted); every later call fails with it. */
  readonly lost: GauntletError | undefined;
  reset(request: ResetRequest, call: CallContext): Promise<StepResult>;
  step(action: Action, call: CallContext): Promise<StepResult>;
  state(call: CallContext): Promise<State>;
  /** The next action of a recording session (reset with `browser.record`), or null after `wait_s`. */
  record(request: RecordRequest, call: CallContext): Promise<RecordReply>;
  close(call: CallContext): Promise<void>;
}

/** Opens sessions on one server over one transport. */
export interface Transport {
  readonly name: TransportName;
  /** Describes the server for error messages (`ws://host:8000/ws`). */
  readonly target: string;
  open(call: CallContext): Promise<SessionChannel>;
  dispose(): void;
}

/** The one error every transport reports when the session it held is gone. */
export function sessionLost(sessionId: string, cause: string): SessionError {
  return new SessionError(
    `Session ${sessionId || '(opening)'} is gone: ${cause}. Call reset() to start a new session.`,
  );
}
