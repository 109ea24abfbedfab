import { ServerInterceptingCall, type ServerInterceptor, type StatusObject } from '@grpc/grpc-js';
import { UnauthorizedError } from '@gauntlet/proto';
import { statusForError } from '@gauntlet/proto/grpc';
import { isAuthorized } from './auth.js';

/** Health checks stay open, like HTTP's /health, so probes need no secret. */
const OPEN_PREFIX = '/grpc.health.v1.Health/';

/** The HTTP bearer token, checked on gRPC metadata `authorization` before any handler runs. */
export function bearerTokenInterceptor(token: string | undefined): ServerInterceptor {
  return (method, call) =>
    new ServerInterceptingCall(call, {
      start(next) {
        next({
          onReceiveMetadata(metadata, proceed) {
            const header = metadata.get('authorization')[0];
            if (
              !token ||
              method.path.startsWith(OPEN_PREFIX) ||
              isAuthorized(typeof header === 'string' ? header : undefined, token)
            )
              proceed(metadata);
            else call.sendStatus(statusForError(new UnauthorizedError()) as StatusObject);
          },
        });
      },
    });
}
