import { afterEach, describe, expect, it } from 'vitest';
import { GauntletError, InfraError, SessionError } from '@gauntlet/proto';
import { createEnvClient, type EnvClient, type TransportName } from '@gauntlet/proto/client';
import { runEpisode, scriptedPolicy } from '@gauntlet/proto/agent';
import { startServerProcess, type ServerProcess } from '../support/server-process.js';
import { browserPidOf, killRenderers } from '../support/renderers.js';
import { clickMeBid } from '../transports/harness.js';
import { serveHostileSite } from '../sessions/hostile-policy.js';

// Chaos against the real `gauntlet-env serve` process: the browser, its renderers, and the server
// itself are killed mid-episode. A client must see a typed error (never a reward for the lost
// step), and the recovery time (kill → next good reset) is printed for the report.
const servers: ServerProcess[] = [];
const clients: EnvClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close().catch(() => undefined)));
  await Promise.all(servers.splice(0).map((server) => server.stop()));
});

async function serve(ports?: { port: number; grpcPort: number }, args: string[] = []): Promise<ServerProcess> {
  const server = await startServerProcess(['--max-sessions', '4', ...args], ports);
  servers.push(server);
  return server;
}

/** A client on `transport`; it retries transient errors (40 tries) unless `attempts` says otherwise. */
function connect(server: ServerProcess, transport: TransportName, attempts = 40): EnvClient {
  const url =
    transport === 'grpc' ? server.grpcUrl : transport === 'ws' ? server.url.replace(/^http/, 'ws') : server.url;
  const client = createEnvClient(url, {
    retry: { attempts, initialDelayMs: 50, maxDelayMs: 500, retryOnCapacity: false },
  });
  clients.push(client);
  return client;
}

/** A call's outcome, caught at once: the chaos below rejects it before the test looks at it. */
function outcomeOf(call: Promise<unknown>): Promise<{ result?: unknown; error?: unknown }> {
  return call.then(
    (result) => ({ result }),
    (error: unknown) => ({ error }),
  );
}

/** The step in flight when the chaos strikes: it must fail typed, never deliver a reward. */
async function expectTypedFailure(
  step: Promise<{ result?: unknown; error?: unknown }>,
  allowed: (new (...args: never[]) => GauntletError)[],
): Promise<GauntletError> {
  const { result, error } = await step;
  expect(result, 'the step survived the chaos').toBeUndefined();
  expect(error).toBeInstanceOf(GauntletError);
  expect(
    allowed.some((kind) => error instanceof kind),
    `${(error as Error).name}: ${(error as Error).message}`,
  ).toBe(true);
  return error as GauntletError;
}

async function timeToRecover(client: EnvClient, killedAt: number): Promise<number> {
  const first = await client.reset({ task_name: 'click-test', seed: 2 });
  const elapsed = performance.now() - killedAt;
  expect(await client.step(`click('${clickMeBid(first)}')`)).toMatchObject({ reward: 1, done: true });
  return elapsed;
}

describe('chaos a policy can cause', () => {
  it("on every transport: a page that freezes its own main thread is the policy's timeout, never INFRA_ERROR", async () => {
    const site = await serveHostileSite();
    try {
      const server = await serve(undefined, ['--allow-origin', site.origin]);
      for (const transport of ['grpc', 'ws', 'http'] as TransportName[]) {
        const client = connect(server, transport);
        const actionSet = { subsets: ['bid', 'coord', 'nav'] };
        await client.reset({ task_name: 'click-test', seed: 1, action_set: actionSet });
        // Before: the input command never answered, the context was given up, and this step and
        // every later one were INFRA_ERROR, which the trainer drops instead of scoring.
        const frozen = await client.step(`goto('${site.origin}/busy')\nnoop(300)\nmouse_click(5, 5)`, {
          timeoutMs: 3_000,
        });
        expect(frozen, transport).toMatchObject({ done: true, reward: 0 });
        expect(frozen.metadata.browsergym_info, transport).toMatchObject({ truncated: true, timed_out: true });
        // A chord of 5,001 keys (9.5 s in one browser call) is refused before it reaches the page.
        await client.reset({ task_name: 'click-test', seed: 1, action_set: actionSet });
        const chord = await client.step(`keyboard_press('${'Shift+'.repeat(5_000)}a')`, { timeoutMs: 3_000 });
        expect(chord.observation.error, transport).toMatch(/^ValueError: keyboard_press\(\) argument 'key'/);
        // What a trainer sees: a rollout whose policy freezes the page ends as a scored `timeout`.
        const freezer = scriptedPolicy(
          'freezer',
          () => () => `goto('${site.origin}/busy')\nnoop(300)\nkeyboard_type('a')`,
        );
        const trajectory = await runEpisode(client, freezer, {
          task: 'click-test',
          seed: 4,
          actionSet: actionSet,
          callTimeoutMs: 3_000,
          maxTurns: 5,
        });
        expect(trajectory.outcome, `${transport}: ${trajectory.error?.message}`).toBe('timeout');
        expect(trajectory.turns).toHaveLength(1);
        expect(trajectory.turns[0]!.error).toMatch(/^TimeoutError: /);
        const recovery = await timeToRecover(client, performance.now());
        expect(recovery).toBeLessThan(30_000);
      }
      const metrics = await (await fetch(`${server.url}/metrics`)).text();
      expect(metrics).toMatch(/^gauntlet_env_unexpected_errors 0$/m);
    } finally {
      await site.close();
    }
  });
});

describe('chaos mid-episode', () => {
  it.each(['grpc', 'ws', 'http'] as TransportName[])(
    '%s: the browser process killed → INFRA_ERROR, then reset recovers on a relaunched browser',
    async (transport) => {
      const server = await serve();
      const client = connect(server, transport);
      await client.reset({ task_name: 'click-test', seed: 1 });
      const step = outcomeOf(client.step('noop(3000)'));
      const killedAt = performance.now();
      process.kill(browserPidOf(server.child.pid!)!, 'SIGKILL');
      await expectTypedFailure(step, [InfraError]);
      const recovery = await timeToRecover(client, killedAt);
      console.log(`[chaos] ${transport}: browser killed → recovered in ${recovery.toFixed(0)} ms`);
      expect(recovery).toBeLessThan(30_000);
    },
  );

  it('every renderer killed mid-step → INFRA_ERROR at once, then reset recovers on a fresh page', async () => {
    const server = await serve();
    const client = connect(server, 'grpc');
    await client.reset({ task_name: 'click-test', seed: 1 });
    const step = outcomeOf(client.step('noop(3000)'));
    const killedAt = performance.now();
    expect(killRenderers(browserPidOf(server.child.pid!)!)).toBeGreaterThan(0);
    await expectTypedFailure(step, [InfraError]);
    expect(performance.now() - killedAt).toBeLessThan(2_500);
    const recovery = await timeToRecover(client, killedAt);
    console.log(`[chaos] renderers killed → recovered in ${recovery.toFixed(0)} ms`);
    expect(recovery).toBeLessThan(30_000);
  });

  it.each(['grpc', 'ws', 'http'] as TransportName[])(
    '%s: every renderer killed just before a reset → that reset answers on a fresh page, with no retry by the client',
    async (transport) => {
      const server = await serve();
      // One try: an INFRA_ERROR (503) the server answers for the racing crash would fail the test.
      const client = connect(server, transport, 1);
      await client.reset({ task_name: 'click-test', seed: 1 });
      expect(killRenderers(browserPidOf(server.child.pid!)!)).toBeGreaterThan(0);
      const reset = await client.reset({ task_name: 'click-test', seed: 2 });
      expect(await client.step(`click('${clickMeBid(reset)}')`)).toMatchObject({ reward: 1, done: true });
    },
  );

  it.each(['grpc', 'ws', 'http'] as TransportName[])(
    '%s: the env server killed → a typed error; a restarted server on the same ports takes the client back',
    async (transport) => {
      const server = await serve();
      const client = connect(server, transport);
      await client.reset({ task_name: 'click-test', seed: 1 });
      const step = outcomeOf(client.step('noop(3000)'));
      const killedAt = performance.now();
      server.child.kill('SIGKILL');
      await server.exited;
      await expectTypedFailure(step, [InfraError, SessionError]);
      const ports = {
        port: Number(new URL(server.url).port),
        grpcPort: Number(new URL(server.grpcUrl.replace('grpc:', 'http:')).port),
      };
      await serve(ports);
      const recovery = await timeToRecover(client, killedAt);
      console.log(`[chaos] ${transport}: server killed → restarted and recovered in ${recovery.toFixed(0)} ms`);
      expect(recovery).toBeLessThan(30_000);
    },
  );
});
