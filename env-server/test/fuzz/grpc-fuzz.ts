import { status as Status, type ServiceError } from '@grpc/grpc-js';
import type { messages as pb } from '@gauntlet/proto/grpc';
import type { Rng } from './rng.js';
import { Findings } from './findings.js';
import { hostileString, HOSTILE_NUMBERS } from './values.js';
import { actionString } from './actions.js';
import { rawClient, unary } from '../grpc/raw-client.js';

/** Statuses a bad request may get; anything else (INTERNAL, UNKNOWN, UNAVAILABLE…) is a finding. */
const CALLER_STATUSES = new Set([
  Status.OK,
  Status.INVALID_ARGUMENT,
  Status.NOT_FOUND,
  Status.FAILED_PRECONDITION,
  Status.RESOURCE_EXHAUSTED,
]);

function randomBytes(rng: Rng): Buffer {
  return Buffer.from(Array.from({ length: rng.int(64) }, () => rng.int(256)));
}

/**
 * `count` unary calls: typed messages with hostile values on one session, and raw byte strings
 * that are not protobufs at all. The session is closed at the end.
 */
export async function fuzzGrpc(grpcUrl: string, rng: Rng, count: number): Promise<Findings> {
  const findings = new Findings('grpc');
  const client = rawClient(grpcUrl);
  // Not even a step timeout the client set itself: past it, the step is the policy's timeout, answered.
  const check = (input: unknown, error: ServiceError | undefined) => {
    if (!error) return;
    findings.checkText(input, `${error.details} ${error.metadata.get('gauntlet-error-bin')[0]?.toString() ?? ''}`);
    if (!CALLER_STATUSES.has(error.code)) {
      findings.add(input, `gRPC ${Status[error.code]}: ${error.details}`);
    }
  };
  try {
    const opened = await unary<pb.ResetReplyOut>(client, 'Reset', { task_name: 'click-test', seed: 1 });
    check('Reset', opened.error);
    const sessionId = opened.reply?.session_id ?? '';
    for (let i = 0; i < count; i += 1) {
      const kind = rng.int(5);
      if (kind === 0) {
        const bytes = randomBytes(rng);
        // Not Reset: random bytes can decode as a valid Reset that opens a session nobody closes.
        const method = rng.pick(['Step', 'State', 'Close']);
        const error = await new Promise<ServiceError | undefined>((resolve) =>
          client.makeUnaryRequest(
            `/gauntlet.env.v1.EnvService/${method}`,
            (b: Buffer) => b,
            (b: Buffer) => b,
            bytes,
            (failure) => resolve(failure ?? undefined),
          ),
        );
        check(`${method} bytes ${bytes.toString('hex')}`, error);
        continue;
      }
      if (kind === 1) {
        const request = {
          session_id: rng.chance(0.8) ? sessionId : hostileString(rng),
          task_name: rng.pick(['click-test', 'nope', hostileString(rng)]),
          seed: rng.int(1000),
        };
        const { error } = await unary(client, 'Reset', request);
        check({ Reset: request }, error);
        continue;
      }
      if (kind === 2) {
        const { error } = await unary(client, 'State', {
          session_id: rng.chance(0.8) ? sessionId : hostileString(rng),
        });
        check('State', error);
        continue;
      }
      const timeout = rng.chance(0.2) ? rng.pick(HOSTILE_NUMBERS) : undefined;
      const request = {
        session_id: sessionId,
        action: { action_str: actionString(rng) },
        ...(timeout === undefined ? {} : { timeout_s: timeout }),
      };
      const { error } = await unary(client, 'Step', request);
      check({ Step: request }, error);
    }
    if (sessionId) await unary(client, 'Close', { session_id: sessionId });
  } finally {
    client.getChannel().close();
  }
  return findings;
}
