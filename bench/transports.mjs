#!/usr/bin/env node
// Transport benchmark: step round-trip p50/p95 and aggregate steps/s with 1 and 8 sessions on the
// same task, for each EnvClient transport (OpenEnv WebSocket, HTTP with sessions, gRPC Session
// stream) against one real env server, plus the in-process EnvService call as the same-run
// baseline. Clients run in a worker thread (their own event loop, as a rollout worker would be),
// the server and the baseline in the main thread. Prints one JSON document. Run `npm run build` first.
// Usage: node bench/transports.mjs [--steps N] [--rounds N] [--quick] [--full-observation]
import { cpus, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';

const TASK = 'enter-text';
const AXTREE_ONLY = { axtree: true, pruned_html: false, extra_properties: false, screenshot: 'none' };
const FULL = { axtree: true, pruned_html: true, extra_properties: true, screenshot: 'none' };

const pct = (xs, p) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return +sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))].toFixed(2);
};

/** Clicking the textbox never solves the task, so every step does the same work. */
const textboxBid = (result) => /\[(\w+)\] textbox/.exec(result.observation.axtree_txt)?.[1];

/** `env` is anything with reset(request) and step(actionString): an EnvClient or the in-process adapter. */
async function stepLoop(env, count, seed, observation, onStep) {
  let result = await env.reset({ task_name: TASK, seed, observation });
  for (let i = 0; i < count; i += 1) {
    // The task's step limit ends an episode now and then; that reset is not timed.
    if (result.done) result = await env.reset({ task_name: TASK, seed: seed + i, observation });
    const action = `click('${textboxBid(result)}')`;
    const t = performance.now();
    result = await env.step(action);
    onStep?.(performance.now() - t);
    if (result.observation.last_action_error) throw new Error(result.observation.error);
  }
}

/** Runs `sessions` sessions' step loops at once; returns every step's time and the wall time. */
async function runRound(envs, steps, seed, observation) {
  const times = [];
  const t = performance.now();
  await Promise.all(envs.map((env, i) => stepLoop(env, steps, seed + i, observation, (ms) => times.push(ms))));
  return { times, seconds: (performance.now() - t) / 1000 };
}

if (!isMainThread) {
  // Worker: one transport's clients, driven round by round by the main thread.
  const { createEnvClient } = await import('../proto/dist/client/index.js');
  const { url, transport, sessions, observation } = workerData;
  const envs = Array.from({ length: sessions }, () => createEnvClient(url, { transport }));
  await Promise.all(envs.map((env, i) => stepLoop(env, 10, i, observation))); // warm up: JIT, sockets, page
  parentPort.on('message', async (message) => {
    if (message.close) {
      await Promise.all(envs.map((env) => env.close()));
      parentPort.postMessage({ closed: true });
      return;
    }
    parentPort.postMessage(await runRound(envs, message.steps, message.seed, observation));
  });
  parentPort.postMessage({ ready: true });
} else {
  const { values } = parseArgs({
    options: {
      steps: { type: 'string', default: '300' },
      rounds: { type: 'string', default: '4' },
      quick: { type: 'boolean', default: false },
      'full-observation': { type: 'boolean', default: false },
    },
  });
  const STEPS = values.quick ? 60 : Number(values.steps);
  const ROUNDS = Number(values.rounds);
  const OBS = values['full-observation'] ? FULL : AXTREE_ONLY;
  const log = (msg) => process.stderr.write(`[bench] ${msg}\n`);
  const { startServer, DEFAULTS } = await import('../env-server/dist/index.js');
  // Other work on the machine moves every figure; the report says how busy it was.
  const loadBefore = loadavg()[0];

  const config = {
    ...structuredClone(DEFAULTS),
    host: '127.0.0.1',
    port: 0,
    grpcPort: 0,
    maxSessions: 40,
    warmContexts: 8,
    idleTtlMs: 0,
  };
  const server = await startServer(config, { waitForBrowser: true });
  const service = server.service;

  /** The baseline target: EnvService in this thread, no serialisation and no socket. */
  async function inProcessTarget(sessions) {
    const envs = await Promise.all(
      Array.from({ length: sessions }, async () => {
        const session = await service.openSession('inproc');
        return {
          reset: (r) => service.reset(session, r),
          step: (a) => service.step(session, { action: { action_str: a } }),
          close: () => service.close(session, 'client'),
        };
      }),
    );
    await Promise.all(envs.map((env, i) => stepLoop(env, 10, i, OBS)));
    return {
      name: 'inproc',
      round: (steps, seed) => runRound(envs, steps, seed, OBS),
      close: () => Promise.all(envs.map((env) => env.close())),
    };
  }

  async function workerTarget(name, url, sessions) {
    const worker = new Worker(new URL(import.meta.url), {
      workerData: { url, transport: name, sessions, observation: OBS },
    });
    const reply = () =>
      new Promise((resolve, reject) => {
        worker.once('message', resolve);
        worker.once('error', reject);
      });
    await reply(); // ready
    return {
      name,
      round: (steps, seed) => (worker.postMessage({ steps, seed }), reply()),
      close: async () => {
        worker.postMessage({ close: true });
        await reply();
        await worker.terminate();
      },
    };
  }

  /** ROUNDS rounds, each giving every target the same steps in turn: outside load falls on all alike. */
  async function measure(sessions) {
    const targets = [
      await inProcessTarget(sessions),
      await workerTarget('ws', server.url.replace(/^http/, 'ws'), sessions),
      await workerTarget('http', server.url, sessions),
      await workerTarget('grpc', server.grpcUrl, sessions),
    ];
    const acc = new Map(targets.map((t) => [t.name, { times: [], seconds: 0 }]));
    const perSession = Math.max(10, Math.floor(STEPS / sessions / ROUNDS));
    for (let round = 0; round < ROUNDS; round += 1) {
      // Each round starts with the next target, so no transport always runs first or last.
      for (const target of [...targets.slice(round % targets.length), ...targets.slice(0, round % targets.length)]) {
        const { times, seconds } = await target.round(perSession, 100 * round);
        acc.get(target.name).times.push(...times);
        acc.get(target.name).seconds += seconds;
      }
    }
    for (const target of targets) await target.close();
    return Object.fromEntries(
      [...acc].map(([name, { times, seconds }]) => [
        name,
        {
          p50_ms: pct(times, 50),
          p95_ms: pct(times, 95),
          steps_per_s: +(times.length / seconds).toFixed(1),
          steps: times.length,
        },
      ]),
    );
  }

  /**
   * What the wire itself costs per reply, without the browser's noise: encode + decode of real
   * step results as JSON (WS, HTTP) and as protobuf (gRPC), and their sizes.
   */
  async function codecCost() {
    const grpc = await import('../proto/dist/grpc/index.js');
    const codec = grpc.envMessageCodec('gauntlet.env.v1.StepResult');
    const session = await service.openSession('inproc');
    const samples = {
      axtree_only: await service.reset(session, { task_name: TASK, seed: 1, observation: AXTREE_ONLY }),
      full_observation: await service.reset(session, { task_name: TASK, seed: 1, observation: FULL }),
      rgb_screenshot: await service.reset(session, {
        task_name: TASK,
        seed: 1,
        observation: { ...AXTREE_ONLY, screenshot: 'rgb' },
      }),
    };
    await service.close(session, 'client');
    const timeUs = (fn, n) => {
      for (let i = 0; i < n; i += 1) fn(); // warm up the JIT on the same work
      const t = performance.now();
      for (let i = 0; i < n; i += 1) fn();
      return +(((performance.now() - t) * 1000) / n).toFixed(1);
    };
    const out = {};
    for (const [name, result] of Object.entries(samples)) {
      const n = name === 'rgb_screenshot' ? 3 : 2_000;
      out[name] = {
        json_bytes: Buffer.byteLength(JSON.stringify(result)),
        protobuf_bytes: codec.serialize(grpc.stepResultToMessage(result)).length,
        json_roundtrip_us: timeUs(() => JSON.parse(JSON.stringify(result)), n),
        protobuf_roundtrip_us: timeUs(
          () => grpc.stepResultFromMessage(codec.deserialize(codec.serialize(grpc.stepResultToMessage(result)))),
          n,
        ),
      };
    }
    return out;
  }

  log('codec cost per reply');
  const codec = await codecCost();
  const results = {};
  for (const sessions of [1, 8]) {
    log(`${sessions} session(s) per target, ${ROUNDS} interleaved rounds`);
    for (const [name, figures] of Object.entries(await measure(sessions)))
      (results[name] ??= {})[`sessions_${sessions}`] = figures;
  }
  await server.close();

  const overhead = {};
  for (const name of ['ws', 'http', 'grpc']) {
    overhead[name] = {
      p50_ms_1_session: +(results[name].sessions_1.p50_ms - results.inproc.sessions_1.p50_ms).toFixed(2),
      p50_ms_8_sessions: +(results[name].sessions_8.p50_ms - results.inproc.sessions_8.p50_ms).toFixed(2),
      throughput_vs_inproc_8_sessions: +(
        results[name].sessions_8.steps_per_s / results.inproc.sessions_8.steps_per_s
      ).toFixed(3),
    };
  }
  const report = {
    machine: {
      cpus: cpus().length,
      node: process.version,
      load_average_1m: { start: +loadBefore.toFixed(2), end: +loadavg()[0].toFixed(2) },
    },
    task: TASK,
    observation: OBS,
    steps_per_config: STEPS,
    rounds: ROUNDS,
    baseline: 'inproc = EnvService.step called in the server process (no transport, no serialisation)',
    results,
    transport_overhead: overhead,
    codec_per_reply: codec,
  };
  process.stdout.write(JSON.stringify(report, null, 2) + '\n');
}
