import type { AddressInfo } from 'node:net';
import type { ServerConfig } from '../config.js';
import { ENV_SERVICE_NAME } from '@gauntlet/proto/grpc';
import { EnvService } from './env-service.js';
import { buildHttpApp } from './http.js';
import { attachWebSocket } from './ws.js';
import { startGrpcServer } from './grpc.js';

export interface RunningServer {
  service: EnvService;
  /** e.g. `http://127.0.0.1:8000` */
  url: string;
  port: number;
  /** e.g. `grpc://127.0.0.1:50051` (`grpcs://` with TLS); '' with `--grpc-port off`. */
  grpcUrl: string;
  /** 0 with `--grpc-port off`. */
  grpcPort: number;
  close(): Promise<void>;
}

/**
 * Starts HTTP + WebSocket on one port and gRPC on another (unless `--grpc-port off`), all over
 * one EnvService. The ports open before Chromium is up so `/health` answers at once; sessions
 * wait for the browser launch.
 */
export async function startServer(
  config: ServerConfig,
  options: { service?: EnvService; waitForBrowser?: boolean } = {},
): Promise<RunningServer> {
  const service = options.service ?? new EnvService(config);
  const app = buildHttpApp(service);
  const ws = attachWebSocket(service);
  app.server.on('upgrade', (req, socket, head) => ws.handleUpgrade(req, socket, head));
  const grpc = config.grpcEnabled ? await startGrpcServer(service) : undefined;
  const browserReady = service.start();
  browserReady.then(
    () => grpc?.health.setStatus(ENV_SERVICE_NAME, 'SERVING'),
    () => undefined,
  );
  if (options.waitForBrowser) await browserReady;
  else browserReady.catch((error: Error) => console.error(`[gauntlet-env] browser launch failed: ${error.message}`));
  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (error) {
    grpc?.close();
    throw error;
  }
  const { port } = app.server.address() as AddressInfo;
  const host = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;
  let closing: Promise<void> | undefined;
  return {
    service,
    port,
    url: `http://${host}:${port}`,
    grpcUrl: grpc?.url ?? '',
    grpcPort: grpc?.port ?? 0,
    close: () => {
      closing ??= (async () => {
        ws.close();
        grpc?.close();
        // Sessions first: their calls in flight end now (cancelled) and get answered, so the HTTP
        // server, which waits for every open request, closes at once instead of after the
        // longest step (a minute-long noop held shutdown past its 10 s grace).
        const sessions = service.sessions.closeAll();
        await app.close();
        await sessions;
        await service.shutdown();
      })();
      return closing;
    },
  };
}
