import { credentials, makeGenericClientConstructor, type Client, type ServiceError } from '@grpc/grpc-js';
import { service as healthService } from 'grpc-health-check';

/** The gRPC service the env server marks SERVING once its browser is up. */
const ENV_SERVICE = 'gauntlet.env.v1.EnvService';

/** Answers whether an env server can take sessions now; never throws, never waits past `timeoutMs`. */
export type HealthProbe = (url: string, timeoutMs: number) => Promise<boolean>;

/**
 * The probe for a URL's transport: HTTP `GET /health` for http(s):// and ws(s):// servers,
 * the standard `grpc.health.v1` Check of the env service for grpc(s):// ones.
 */
export const probeHealth: HealthProbe = (url, timeoutMs) => {
  const parsed = new URL(url);
  return parsed.protocol.startsWith('grpc') ? probeGrpc(parsed, timeoutMs) : probeHttp(parsed, timeoutMs);
};

async function probeHttp(url: URL, timeoutMs: number): Promise<boolean> {
  const scheme = url.protocol === 'https:' || url.protocol === 'wss:' ? 'https' : 'http';
  const base = url.pathname.replace(/\/(ws)?\/?$/, '');
  try {
    const response = await fetch(`${scheme}://${url.host}${base}/health`, { signal: AbortSignal.timeout(timeoutMs) });
    await response.body?.cancel();
    return response.ok;
  } catch {
    return false;
  }
}

const HealthClient = makeGenericClientConstructor(healthService, 'Health') as unknown as new (address: string, creds: ReturnType<typeof credentials.createInsecure>) => Client & {
  check(request: { service: string }, options: { deadline: Date }, callback: (error: ServiceError | null, reply?: { status: string }) => void): void;
};

function probeGrpc(url: URL, timeoutMs: number): Promise<boolean> {
  const client = new HealthClient(url.host, url.protocol === 'grpcs:' ? credentials.createSsl() : credentials.createInsecure());
  return new Promise<boolean>((resolve) => {
    client.check({ service: ENV_SERVICE }, { deadline: new Date(Date.now() + timeoutMs) }, (error, reply) => {
      client.close();
      resolve(!error && reply?.status === 'SERVING');
    });
  });
}
