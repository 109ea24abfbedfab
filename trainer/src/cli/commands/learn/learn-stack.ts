import { findBin, startChildBin, type ChildBin } from '@gauntlet/proto/cli';

/** The processes of a local run, each a bin a user could start by hand. */
export interface StackPlan {
  redisUrl: string;
  prefix: string;
  workers: number;
  concurrency: number;
  /** `gauntlet-trainer grpo` arguments, without the queue and server flags the stack adds. */
  grpoArgs: string[];
  log: (line: string) => void;
}

export interface RunningStack {
  curvesUrl: string;
  /** Resolves when the trainer exits (its exit code), or when another process of the stack dies first. */
  ended: Promise<{ code: number | string; who: string }>;
  /** Stops what is still running: workers first (nothing left to play for), then the trainer, then the env. */
  stop(): Promise<void>;
}

const ENV_READY = /listening on (http:\/\/\S+) .*gRPC: (grpc:\/\/[^,\s]+)/;
const TRAINER_READY = /policy server (http:\/\/\S+?);.*curves (http:\/\/\S+)/;
// Worker lines worth showing while training: failures, not the per-episode chatter.
const WORKER_NEWS = /dropped|failed for good|worker error|unreachable|refused/;

/**
 * Starts an env server, the trainer (`grpo` with its in-process policy server) and the workers as
 * child processes on free loopback ports, in that order (the workers need the policy server's URL).
 * A failure to start stops what already runs.
 */
export async function startStack(plan: StackPlan): Promise<RunningStack> {
  const started: { name: string; child: ChildBin }[] = [];
  const stop = async () => {
    for (const { child } of started.splice(0).reverse()) await child.stop();
  };
  try {
    const sessions = plan.workers * plan.concurrency + 2;
    const env = await startChildBin(
      findBin('gauntlet-env'),
      ['serve', '--host', '127.0.0.1', '--port', '0', '--grpc-port', '0', '--max-sessions', String(sessions)],
      { what: 'the env server (gauntlet-env serve)', ready: ENV_READY },
    );
    started.push({ name: 'the env server', child: env });
    const grpcUrl = env.match[2]!;
    plan.log(`env server ${env.match[1]} (gRPC ${grpcUrl}, ${sessions} sessions)`);
    const queue = ['--redis', plan.redisUrl, '--prefix', plan.prefix];
    const trainer = await startChildBin(
      findBin('gauntlet-trainer'),
      ['grpo', ...plan.grpoArgs, ...queue, '--host', '127.0.0.1', '--port', '0'],
      {
        what: 'the trainer (gauntlet-trainer grpo)',
        ready: TRAINER_READY,
        onLine: (line) => line && plan.log(`trainer: ${line}`),
      },
    );
    started.push({ name: 'the trainer', child: trainer });
    const [policyUrl, curvesUrl] = [trainer.match[1]!, trainer.match[2]!];
    for (let i = 0; i < plan.workers; i++) {
      const name = `worker ${i + 1}`;
      const worker = await startChildBin(
        findBin('gauntlet-worker'),
        [
          'run',
          ...['--env', grpcUrl, '--policy', policyUrl, ...queue],
          ...['--concurrency', String(plan.concurrency), '--metrics-port', '0'],
        ],
        {
          what: `${name} (gauntlet-worker run)`,
          ready: /worker ready/,
          onLine: (line) => WORKER_NEWS.test(line) && plan.log(`${name}: ${line}`),
        },
      );
      started.push({ name, child: worker });
    }
    plan.log(`${plan.workers} worker(s) × ${plan.concurrency} episodes at once; policy server ${policyUrl}`);
    const ended = Promise.race(started.map(({ name, child }) => child.exited.then((code) => ({ code, who: name }))));
    return { curvesUrl, ended, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
