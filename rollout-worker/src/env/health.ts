import { Deadline } from '@gauntlet/proto/deadline';
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

function probeHttp(url: URL, timeoutMs: number): Promise<boolean> {
  const scheme = url.protocol === 'https:' || url.protocol === 'wss:' ? 'https' : 'http';
  const base = url.pathname.replace(/\/(ws)?\/?$/, '');
  return answers(`${scheme}://${url.host}${base}/health`, timeoutMs);
}

/**
 * Whether `url` answers 2xx within `timeoutMs`. The deadline is a ref'd timer on purpose: while a
 * container starts, Docker's port proxy accepts and holds the connection, and fetch alone (with
 * AbortSignal.timeout, which is unref'd) would leave nothing keeping the process alive.
 */
export async function answers(url: string, timeoutMs: number): Promise<boolean> {
  const deadline = new Deadline(`health check of ${url}`, { ms: timeoutMs });
  try {
    const response = await fetch(url, { signal: deadline.signal });
    await response.body?.cancel();
    return response.ok;
  } catch {
    return false;
  } finally {
    deadline.dispose();
  }
}

const HealthClient = makeGenericClientConstructor(healthService, 'Health') as unknown as new (
  address: string,
  creds: ReturnType<typeof credentials.createInsecure>,
) => Client & {
  check(
    request: { service: string },
    options: { deadline: Date },
    callback: (error: ServiceError | null, reply?: { status: string }) => void,
  ): void;
};

function probeGrpc(url: URL, timeoutMs: number): Promise<boolean> {
  const client = new HealthClient(
    url.host,
    url.protocol === 'grpcs:' ? credentials.createSsl() : credentials.createInsecure(),
  );
  return new Promise<boolean>((resolve) => {
    client.check({ service: ENV_SERVICE }, { deadline: new Date(Date.now() + timeoutMs) }, (error, reply) => {
      client.close();
      resolve(!error && reply?.status === 'SERVING');
    });
  });
}
