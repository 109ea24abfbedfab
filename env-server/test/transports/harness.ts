import { afterAll, afterEach, beforeAll, expect, vi } from 'vitest';
import type { StepResult } from '@gauntlet/proto';
import { createEnvClient, type EnvClient, type EnvClientOptions, type TransportName } from '@gauntlet/proto/client';
import type { ServerConfig } from '../../src/config.js';
import type { RunningServer } from '../../src/server/app.js';
import type { TaskDefinition } from '../../src/tasks/task.js';
import { startTestServer } from '../support/server.js';

/** Small limits so capacity and oversize requests are cheap to reach. */
export const LIMITS: Partial<ServerConfig> = { maxSessions: 3, wsFrameLimitBytes: 64 * 1024, bodyLimitBytes: 64 * 1024, grpcMessageLimitBytes: 64 * 1024 };

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

/** Plays the task's own oracle (observation in, action string out) until the episode ends. */
export async function solveWithOracle(client: EnvClient, task: TaskDefinition, seed: number): Promise<{ result: StepResult; steps: number }> {
  let result = await client.reset({ task_name: task.name, seed, episode_id: `${task.name}-${seed}` });
  let steps = 0;
  while (!result.done && steps < task.maxSteps) {
    const { observation } = result;
    const action = task.oracle({
      goal: observation.goal, axtree_txt: observation.axtree_txt, pruned_html: observation.pruned_html,
      url: observation.url, focused_element_bid: observation.metadata.browsergym_obs.focused_element_bid,
    });
    result = await client.step(action);
    steps += 1;
  }
  return { result, steps };
}

export function clickMeBid(result: StepResult): string {
  const bid = /\[(\w+)\] button 'Click Me!'/.exec(result.observation.axtree_txt)?.[1];
  if (!bid) throw new Error(`no Click Me! button in:\n${result.observation.axtree_txt}`);
  return bid;
}
