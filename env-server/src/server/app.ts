import type { AddressInfo } from 'node:net';
import type { ServerConfig } from '../config.js';
import { EnvService } from './env-service.js';
import { buildHttpApp } from './http.js';
import { attachWebSocket } from './ws.js';

export interface RunningServer {
  service: EnvService;
  /** e.g. `http://127.0.0.1:8000` */
  url: string;
  port: number;
  close(): Promise<void>;
}

/**
 * Starts HTTP + WebSocket on one port. The port opens before Chromium is up so `/health`
 * answers at once; sessions wait for the browser launch.
 */
export async function startServer(config: ServerConfig, options: { service?: EnvService; waitForBrowser?: boolean } = {}): Promise<RunningServer> {
  const service = options.service ?? new EnvService(config);
  const app = buildHttpApp(service);
  const ws = attachWebSocket(service);
  app.server.on('upgrade', (req, socket, head) => ws.handleUpgrade(req, socket, head));
  const browserReady = service.start();
  if (options.waitForBrowser) await browserReady;
  else browserReady.catch((error: Error) => console.error(`[gauntlet-env] browser launch failed: ${error.message}`));
  await app.listen({ port: config.port, host: config.host });
  const { port } = app.server.address() as AddressInfo;
  const host = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;
  let closing: Promise<void> | undefined;
  return {
    service,
    port,
    url: `http://${host}:${port}`,
    close: () => {
      closing ??= (async () => {
        ws.close();
        await app.close();
        await service.shutdown();
      })();
      return closing;
    },
  };
}
