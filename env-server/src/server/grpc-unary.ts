import { DeadlineExceededError, ValidationError } from '@gauntlet/proto';
import {
  resetBodyFromMessage,
  stateToMessage,
  statusForError,
  stepBodyFromMessage,
  stepResultToMessage,
  type messages as pb,
} from '@gauntlet/proto/grpc';
import { abortOn, type EventSource } from '@gauntlet/proto/deadline';
import type { ServerUnaryCall, handleUnaryCall, sendUnaryData } from '@grpc/grpc-js';
import type { EnvService } from './env-service.js';
import type { EnvSession } from '../sessions/session.js';
import { assertDecoded } from './grpc-decode.js';

type UnaryHandlers = Pick<pb.EnvServiceHandlers, 'Reset' | 'Step' | 'State' | 'Close'>;

/** Reset/Step/State/Close addressed by session id: the gRPC face of HTTP's x-session-id sessions. */
export function unaryHandlers(service: EnvService): UnaryHandlers {
  const sessionOf = (id: string): EnvSession => {
    if (!id)
      throw new ValidationError('session_id is required: call Reset without one to open a session and get its id');
    return service.sessions.get(id);
  };
  return {
    Reset: unary(service, 'ResetRequest', async (request, call) => {
      const opened = request.session_id ? undefined : await service.openSession('grpc');
      const session = opened ?? sessionOf(request.session_id);
      try {
        return {
          session_id: session.id,
          result: stepResultToMessage(await service.reset(session, resetBodyFromMessage(request), cancelledBy(call))),
        };
      } catch (error) {
        // The caller never learned this session's id, so nobody else could close it.
        if (opened) await service.close(opened, 'failed');
        throw error;
      }
    }),
    Step: unary(service, 'StepRequest', async (request, call) => {
      const session = sessionOf(request.session_id);
      return stepResultToMessage(
        await service.step(session, stepBodyFromMessage(request, secondsLeft(call)), cancelledBy(call)),
      );
    }),
    State: unary(service, 'StateRequest', async (request) =>
      stateToMessage(service.state(sessionOf(request.session_id))),
    ),
    Close: unary(service, 'CloseRequest', async (request) => {
      const session = sessionOf(request.session_id);
      await service.close(session, 'client');
      return { closed: true };
    }),
  };
}

function unary<Req, Res>(
  service: EnvService,
  what: string,
  work: (request: Req, call: ServerUnaryCall<Req, Res>) => Promise<Res>,
): handleUnaryCall<Req, Res> {
  return (call: ServerUnaryCall<Req, Res>, callback: sendUnaryData<Res>) => {
    const run = async () => {
      assertDecoded(call.request, what);
      return work(call.request, call);
    };
    run().then(
      (reply) => callback(null, reply),
      (error: unknown) => {
        service.metrics.countError(error);
        callback(statusForError(error));
      },
    );
  };
}

/** Aborts when the client cancels the call (or its deadline passes on its side): the work stops, not only the reply. */
function cancelledBy(call: EventSource & { cancelled?: boolean }): AbortSignal {
  return abortOn(call, 'cancelled', { already: call.cancelled === true });
}

/** The client's deadline as a step timeout (seconds); past it, the step is not started at all. */
export function secondsLeft(call: { getDeadline(): Date | number }): number | undefined {
  const deadline = call.getDeadline();
  const at = deadline instanceof Date ? deadline.getTime() : deadline;
  if (!Number.isFinite(at)) return undefined;
  const left = (at - Date.now()) / 1000;
  if (left <= 0) throw new DeadlineExceededError('The call deadline passed before the step started');
  return Math.min(left, 600);
}
