import { readFileSync } from 'node:fs';
import { Server, ServerCredentials } from '@grpc/grpc-js';
import { HealthImplementation } from 'grpc-health-check';
import { ReflectionService } from '@grpc/reflection';
import {
  ENV_SERVICE_NAME,
  envPackageDefinition,
  envServiceDefinition,
  type messages as pb,
} from '@gauntlet/proto/grpc';
import type { ServerConfig } from '../config.js';
import type { EnvService } from './env-service.js';
import { bearerTokenInterceptor } from './grpc-auth.js';
import { withCleanDecodeErrors } from './grpc-decode.js';
import { serveSessionStream } from './grpc-session.js';
import { unaryHandlers } from './grpc-unary.js';

export interface RunningGrpcServer {
  port: number;
  /** grpc://host:port or grpcs://host:port */
  url: string;
  health: HealthImplementation;
  close(): void;
}

/**
 * gRPC on its own port over the same EnvService as HTTP and /ws (one session manager: limits,
 * leases and metrics are shared): EnvService, grpc.health.v1 and server reflection.
 */
export async function startGrpcServer(service: EnvService): Promise<RunningGrpcServer> {
  const { config } = service;
  const server = new Server({
    interceptors: [bearerTokenInterceptor(config.bearerToken)],
    'grpc.max_receive_message_length': config.grpcMessageLimitBytes,
  });
  const handlers: pb.EnvServiceHandlers = {
    ...unaryHandlers(service),
    Session: (call) => serveSessionStream(service, call),
  };
  server.addService(withCleanDecodeErrors(envServiceDefinition()), handlers);
  // Overall health is SERVING once the port is open; the env service once Chromium is up.
  const health = new HealthImplementation({ '': 'SERVING', [ENV_SERVICE_NAME]: 'NOT_SERVING' });
  health.addToServer(server);
  new ReflectionService(envPackageDefinition()).addToServer(server);

  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync(`${host}:${config.grpcPort}`, credentialsFor(config), (error, bound) =>
      error
        ? reject(
            new Error(
              `gRPC cannot listen on ${host}:${config.grpcPort} (${error.message}); pick another port with --grpc-port / GRPC_PORT`,
            ),
          )
        : resolve(bound),
    ),
  );
  const reachable = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : host;
  return {
    port,
    url: `${config.grpcTlsCert ? 'grpcs' : 'grpc'}://${reachable}:${port}`,
    health,
    close() {
      health.setStatus('', 'NOT_SERVING');
      health.setStatus(ENV_SERVICE_NAME, 'NOT_SERVING');
      // Session streams never finish on their own; cancelling them frees their sessions.
      server.forceShutdown();
    },
  };
}

function credentialsFor(config: ServerConfig): ServerCredentials {
  if (!config.grpcTlsCert || !config.grpcTlsKey) return ServerCredentials.createInsecure();
  return ServerCredentials.createSsl(
    null,
    [{ cert_chain: readFileSync(config.grpcTlsCert), private_key: readFileSync(config.grpcTlsKey) }],
    false,
  );
}
