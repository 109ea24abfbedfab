import { afterAll, afterEach, beforeAll, expect, vi } from 'vitest';
import type { StepResult } from '@gauntlet/proto';
import { runEpisode } from '@gauntlet/proto/agent';
import { createEnvClient, type EnvClient, type EnvClientOptions, type TransportName } from '@gauntlet/proto/client';
import type { ServerConfig } from '../../src/config.js';
import type { RunningServer } from '../../src/server/app.js';
import { oraclePolicy } from '../../src/tasks/oracle-helpers/oracle-policy.js';
import type { TaskDefinition } from '../../src/tasks/task.js';
import { startTestServer } from '../support/server.js';

/** Small limits so capacity and oversize requests are cheap to reach. */
export const LIMITS: Partial<ServerConfig> = {
  maxSessions: 3,
  wsFrameLimitBytes: 64 * 1024,
  bodyLimitBytes: 64 * 1024,
  grpcMessageLimitBytes: 64 * 1024,
};

export function urlFor(server: RunningServer, transport: TransportName): string {
  if (transport === 'grpc') return server.grpcUrl;
  return transport === 'ws' ? server.url.replace(/^http/, 'ws') : server.url;
}

/**
 * One real env server per test file (real Chromium), clients that are closed after every test,
 * and a check that no session outlives its test.
 */
export function useServer(transport: TransportName) {
  const state = { server: undefined as unknown as RunningServer, clients: [] as EnvClient[] };
  beforeAll(async () => {
    state.server = await startTestServer(LIMITS);
  });
  afterAll(() => state.server.close());
  afterEach(async () => {
    await Promise.all(state.clients.splice(0).map((client) => client.close().catch(() => undefined)));
    await vi.waitFor(() => expect(state.server.service.sessions.size).toBe(0));
  });
  return {
    get server() {
      return state.server;
    },
    /** Replaces the server with a fresh one on the same ports (a restart, as clients see it). */
    async restart() {
      const { port, grpcPort } = state.server;
      await state.server.close();
      state.server = await startTestServer({ ...LIMITS, port, grpcPort });
    },
    connect(options: EnvClientOptions = {}, server: RunningServer = state.server): EnvClient {
      const client = createEnvClient(urlFor(server, transport), { validateReplies: true, ...options });
      state.clients.push(client);
      return client;
    },
  };
}

/** Plays the task's own oracle (observation in, action string out) through runEpisode until the episode ends. */
export async function solveWithOracle(
  client: EnvClient,
  task: TaskDefinition,
  seed: number,
): Promise<{ result: StepResult; steps: number }> {
  let result: StepResult | undefined;
  // The server's default observation parts: MiniWoB oracles may read the pruned HTML.
  const trajectory = await runEpisode(client, oraclePolicy(task), {
    task: task.name,
    seed,
    episodeId: `${task.name}-${seed}`,
    observation: {},
    maxTurns: task.maxSteps,
    onResult: (r) => (result = r),
  });
  if (trajectory.error)
    throw new Error(`${task.name} seed ${seed} ended as ${trajectory.outcome}: ${trajectory.error.message}`);
  return { result: result!, steps: trajectory.turns.length };
}

export function clickMeBid(result: StepResult): string {
  const bid = /\[(\w+)\] button 'Click Me!'/.exec(result.observation.axtree_txt)?.[1];
  if (!bid) throw new Error(`no Click Me! button in:\n${result.observation.axtree_txt}`);
  return bid;
}
