import { ValidationError } from '../errors.js';
import type { Transport } from './channel.js';
import { grpcTransport } from './grpc-channel.js';
import { httpTransport } from './http-channel.js';
import { SessionEnvClient } from './session-client.js';
import type { EnvClient, EnvClientOptions, TransportName } from './types.js';
import { wsTransport } from './ws-channel.js';

const DEFAULT_MAX_MESSAGE_BYTES = 100 * 1024 * 1024;

/**
 * An EnvClient for the env server at `url`. The scheme picks the transport: `ws://host:8000`
 * (OpenEnv WebSocket, `/ws` appended), `http://host:8000` (HTTP with stateful sessions) or
 * `grpc://host:50051` / `grpcs://` (gRPC Session stream); `options.transport` switches an
 * http(s) URL to ws. No network traffic happens until the first call.
 */
export function createEnvClient(url: string, options: EnvClientOptions = {}): EnvClient {
  const transport = transportFor(url, options);
  return new SessionEnvClient(transport, {
    ...(options.callTimeoutMs === undefined ? {} : { callTimeoutMs: options.callTimeoutMs }),
    ...(options.validateReplies === undefined ? {} : { validateReplies: options.validateReplies }),
    retry: options.retry,
  });
}

function transportFor(url: string, options: EnvClientOptions): Transport {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ValidationError(`Not a URL: ${JSON.stringify(url)} (expected ws://, http:// or grpc://host:port)`);
  }
  const scheme = parsed.protocol.replace(/:$/, '');
  const secure = scheme === 'https' || scheme === 'wss' || scheme === 'grpcs';
  const name: TransportName =
    options.transport ?? (scheme.startsWith('grpc') ? 'grpc' : scheme.startsWith('ws') ? 'ws' : 'http');
  const maxMessageBytes = options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
  if (name === 'grpc') {
    if (!scheme.startsWith('grpc'))
      throw new ValidationError(`gRPC listens on its own port: use grpc://host:50051 (got ${url})`);
    return grpcTransport({
      address: parsed.host,
      tls: secure,
      tlsCa: options.tlsCa,
      token: options.token,
      maxMessageBytes,
    });
  }
  if (!/^(https?|wss?)$/.test(scheme))
    throw new ValidationError(`Unsupported scheme ${JSON.stringify(scheme)} for the ${name} transport`);
  const base = `${parsed.host}${parsed.pathname.replace(/\/(ws)?\/?$/, '')}`;
  if (name === 'ws')
    return wsTransport({ url: `${secure ? 'wss' : 'ws'}://${base}/ws`, token: options.token, maxMessageBytes });
  return httpTransport({ url: `${secure ? 'https' : 'http'}://${base}`, token: options.token });
}
