import { hostname } from 'node:os';
import { DockerEnvProvider } from '../../env/docker-provider.js';
import { EnvPool } from '../../env/env-pool.js';
import { DEFAULT_ENV_WAIT_MS } from '../../episode/play.js';
import { WorkerMetrics } from '../../metrics/metrics.js';
import { serveMetrics, type MetricsServer } from '../../metrics/server.js';
import { PolicyPool, RANDOM_POLICY } from '../../policies/policy-pool.js';
import { RolloutWorker } from '../../queue/rollout-worker.js';
import { defineCommand, UsageError } from '../command.js';
import { openConnection, QUEUE_OPTIONS } from '../options.js';

export const runCommand = defineCommand({
  name: 'run',
  // Ctrl-C drains: episodes in hand finish and hand their groups on, then the worker exits 0.
  drains: true,
  summary: 'Run a worker: play episodes from the queue and assemble finished groups for the trainer',
  description: [
    'Plays episode jobs from the queue, --concurrency at a time, each on the next healthy env server',
    '(round robin; a full or unreachable server passes the episode on) with the next policy server (an',
    "episode's turns all go to one server). While every env server is full an episode waits for a session",
    '(--env-wait-ms, before its own deadline starts), then goes back to the queue unplayed: capacity never',
    'costs a try, and the worker takes no more episodes than it has sessions for. Infra errors are',
    'retried with backoff, never scored; a group whose episode runs out of tries is dropped whole. A',
    "group whose episodes are all done is handed to the trainer's queue. A killed worker's episodes go",
    'back to the queue once their locks expire.',
    'SIGTERM/SIGINT drains: no new episodes, the running ones get --drain-ms to finish and are then',
    'handed back to the queue; a second signal stops at once. Prometheus figures at /metrics.',
  ].join('\n'),
  options: {
    ...QUEUE_OPTIONS,
    env: {
      kind: 'list',
      valueName: 'URL',
      help: 'Env server (grpc://host:50051 recommended, http://, ws://)',
      repeatable: true,
      env: 'GAUNTLET_ENV_URLS',
    },
    docker: {
      kind: 'string',
      valueName: 'IMAGE',
      help: 'Start env servers as containers of this image (Dockerfile.env), labelled and removed on exit; orphans of a crashed worker are removed first',
    },
    replicas: { kind: 'integer', min: 1, default: 1, valueName: 'N', help: 'Containers to start with --docker' },
    'docker-env': {
      kind: 'list',
      valueName: 'KEY=VALUE',
      help: 'Environment of the --docker containers (e.g. MAX_CONCURRENT_ENVS=16); repeat it for more (values may hold commas)',
      repeatable: true,
      noSplit: true,
    },
    policy: {
      kind: 'list',
      valueName: 'NAME=URL',
      help: `Policy server (gauntlet-trainer serve or vLLM), named NAME (jobs name servers, never give URLs) or, as a bare URL, by its host:port; or "${RANDOM_POLICY}" for the random-click baseline`,
      repeatable: true,
      env: 'GAUNTLET_POLICY_URLS',
    },
    concurrency: {
      kind: 'integer',
      min: 1,
      default: 4,
      valueName: 'N',
      help: 'Episodes played at once (each holds one env session)',
    },
    'env-wait-ms': {
      kind: 'integer',
      min: 1,
      default: DEFAULT_ENV_WAIT_MS,
      valueName: 'MS',
      help: "How long an episode waits for an env session while every server is full, then goes back to the queue (never past the job's deadline_ms)",
    },
    'metrics-port': {
      kind: 'integer',
      min: 0,
      default: 9464,
      valueName: 'N',
      help: 'Port of /metrics and /health (0 = any free port)',
    },
    'no-metrics': { kind: 'boolean', help: 'Serve no /metrics' },
    'metrics-host': {
      kind: 'string',
      default: '127.0.0.1',
      valueName: 'ADDR',
      help: 'Address /metrics binds',
    },
    'drain-ms': {
      kind: 'integer',
      min: 0,
      default: 30_000,
      valueName: 'MS',
      help: 'On SIGTERM, how long running episodes may finish before they are handed back',
    },
    'lock-ms': {
      kind: 'integer',
      min: 100,
      default: 30_000,
      valueName: 'MS',
      help: "Job lock lifetime: a killed worker's episodes are re-run about this long after it died",
    },
    'stalled-interval-ms': {
      kind: 'integer',
      min: 100,
      default: 30_000,
      valueName: 'MS',
      help: 'How often this worker looks for episodes of dead workers',
    },
    'call-timeout-ms': {
      kind: 'integer',
      min: 1,
      default: 60_000,
      valueName: 'MS',
      help: 'Deadline of each env call',
    },
    'policy-timeout-ms': {
      kind: 'integer',
      min: 1,
      default: 120_000,
      valueName: 'MS',
      help: 'Deadline of each policy call, retries included',
    },
    'probe-interval-ms': {
      kind: 'integer',
      min: 100,
      default: 5_000,
      valueName: 'MS',
      help: 'How often env servers are health-checked',
    },
    'env-token': {
      kind: 'string',
      valueName: 'TOKEN',
      help: 'Bearer token of the env servers',
      env: 'GAUNTLET_TOKEN',
    },
    'policy-api-key': {
      kind: 'string',
      valueName: 'KEY',
      help: 'API key of the policy servers (vLLM --api-key)',
      env: 'VLLM_API_KEY',
    },
    name: { kind: 'string', valueName: 'NAME', help: 'Worker name shown by status', defaultText: 'host:pid' },
  },
  examples: [
    'gauntlet-worker run --env grpc://127.0.0.1:50051 --policy http://127.0.0.1:8001 --concurrency 8',
    'gauntlet-worker run --env grpc://env-a:50051,grpc://env-b:50051 --policy gpu-a=http://gpu-a:8000 --policy gpu-b=http://gpu-b:8000',
  ],
  async run(context) {
    const { values, io, signal } = context;
    const envUrls = values.env ?? [];
    const policyUrls = values.policy ?? [];
    const image = values.docker;
    if (envUrls.length === 0 && !image)
      throw new UsageError(
        '--env is required: the env servers to play on (e.g. --env grpc://127.0.0.1:50051), or --docker IMAGE',
        'env',
      );
    if (policyUrls.length === 0)
      throw new UsageError(`--policy is required: policy server URLs, or ${RANDOM_POLICY}`, 'policy');
    // The kit checked every flag before anything starts: a typo fails now, not at shutdown.
    const concurrency = values.concurrency;
    const callTimeoutMs = values['call-timeout-ms'];
    const envWaitMs = values['env-wait-ms'];
    const probeIntervalMs = values['probe-interval-ms'];
    const policyTimeoutMs = values['policy-timeout-ms'];
    const metricsPort = values['no-metrics'] ? -1 : values['metrics-port'];
    const drainMs = values['drain-ms'];
    const lockMs = values['lock-ms'];
    const stalledIntervalMs = values['stalled-interval-ms'];
    const replicas = values.replicas;
    const policies = new PolicyPool(policyUrls, {
      apiKey: values['policy-api-key'],
      timeoutMs: policyTimeoutMs,
    });
    const docker = image ? new DockerEnvProvider({ image, replicas, env: values['docker-env'] ?? [] }) : undefined;
    const connection = await openConnection(context);
    try {
      if (docker) {
        io.err(`starting ${replicas} env server container(s) of ${image} …`);
        envUrls.push(...(await docker.start()));
      }
      const metrics = new WorkerMetrics();
      const envs = new EnvPool(envUrls, {
        token: values['env-token'],
        callTimeoutMs,
        probeIntervalMs,
        maxIdle: concurrency,
        metrics,
      });
      let server: MetricsServer | undefined;
      await envs.start();
      const worker = new RolloutWorker({
        connection,
        concurrency,
        metrics,
        name: values.name ?? `${hostname()}:${process.pid}`,
        players: { envs, policies, callTimeoutMs, envWaitMs },
        lockMs,
        stalledIntervalMs,
        events: {
          episode: (t, attempt) =>
            io.err(
              `episode ${t.episode_id} ${t.outcome} reward ${t.reward} in ${t.turns.length} turns, ${(t.wall_ms / 1000).toFixed(1)} s${attempt > 1 ? ` (attempt ${attempt})` : ''}`,
            ),
          episodeFailed: (id, reason, final) =>
            io.err(`episode ${id} ${final ? 'failed for good' : 'will be retried'}: ${reason}`),
          groupCompleted: (s) =>
            io.err(
              `group ${s.group_id} done: ${s.successes}/${s.episodes} succeeded, mean reward ${s.mean_reward.toFixed(3)}; handed to the trainer queue`,
            ),
          episodeStale: (id, reason) => io.err(`episode ${id} abandoned: ${reason}`),
          groupDropped: (id, reason) => io.err(`group ${id} dropped: ${reason}`),
          groupStale: (id, reason) => io.err(`group ${id} is stale, not handed to the trainer: ${reason}`),
          error: (error) => io.err(`worker error: ${error.message}`),
        },
      });
      try {
        await worker.waitUntilReady();
        if (metricsPort >= 0)
          server = await serveMetrics(metrics.registry, metricsPort, values['metrics-host'], {
            // A worker that cannot reach its queues plays nothing: not healthy.
            unhealthy: () => (connection.watch.up ? null : `Redis at ${connection.watch.url} is unreachable`),
          });
        const healthy = envs.servers.filter((s) => s.healthy).length;
        io.out(
          `worker ready: ${concurrency} episodes at once; queues ${connection.prefix} on ${connection.redis.host}:${connection.redis.port}; env servers ${envUrls.join(', ')} (${healthy} healthy); policy ${policies.names.join(', ') || RANDOM_POLICY}${server ? `; metrics ${server.url}/metrics` : ''}`,
        );
        await new Promise<void>((resolve) =>
          signal.aborted ? resolve() : signal.addEventListener('abort', () => resolve(), { once: true }),
        );
        io.err(
          `draining: ${(await metrics.episodesInFlight.get()).values[0]?.value ?? 0} running episodes get ${drainMs} ms to finish, then go back to the queue (signal again to stop now)`,
        );
        const force = () => void worker.close();
        process.once('SIGINT', force);
        process.once('SIGTERM', force);
        await worker.drain(drainMs);
        io.out('worker stopped');
        return 0;
      } finally {
        await worker.close();
        await envs.close();
        await server?.close();
      }
    } finally {
      // Also on a failed start: the containers go with the worker, not at the next worker's orphan sweep.
      await docker?.stop();
      await connection.watch.close();
    }
  },
});
