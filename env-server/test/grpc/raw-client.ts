import { Metadata, credentials, type ChannelCredentials, type ServiceError } from '@grpc/grpc-js';
import { envGrpc, type messages as pb } from '@gauntlet/proto/grpc';

type UnaryName = 'Reset' | 'Step' | 'State' | 'Close';

/** The generated gRPC client, without the SDK in between: what grpcurl or another language sees. */
export function rawClient(
  grpcUrl: string,
  creds: ChannelCredentials = credentials.createInsecure(),
): pb.EnvServiceClient {
  return new (envGrpc().EnvService)(grpcUrl.replace(/^grpcs?:\/\//, ''), creds);
}

export interface UnaryOutcome<R> {
  reply?: R;
  error?: ServiceError;
}

/** One unary call as a promise that resolves either way, so tests can look at the status. */
export function unary<R>(
  client: pb.EnvServiceClient,
  method: UnaryName,
  request: object,
  options: { deadlineMs?: number; token?: string } = {},
): Promise<UnaryOutcome<R>> {
  const metadata = new Metadata();
  if (options.token) metadata.set('authorization', `Bearer ${options.token}`);
  const callOptions = options.deadlineMs === undefined ? {} : { deadline: Date.now() + options.deadlineMs };
  const invoke = client[method].bind(client) as (
    req: object,
    md: Metadata,
    opts: object,
    cb: (error: ServiceError | null, reply?: R) => void,
  ) => void;
  return new Promise((resolve) =>
    invoke(request, metadata, callOptions, (error, reply) => resolve(error ? { error } : { reply: reply! })),
  );
}

/** A unary call that must succeed. */
export async function ok<R>(
  client: pb.EnvServiceClient,
  method: UnaryName,
  request: object,
  options: { deadlineMs?: number; token?: string } = {},
): Promise<R> {
  const { reply, error } = await unary<R>(client, method, request, options);
  if (error) throw new Error(`${method} failed: ${error.code} ${error.details}`);
  return reply!;
}

/** The typed error the server put in trailing metadata. */
export function wireErrorOf(
  error: ServiceError | undefined,
): { name: string; code: string; message: string } | undefined {
  const raw = error?.metadata.get('gauntlet-error-bin')[0];
  return raw ? JSON.parse(raw.toString()) : undefined;
}
