#!/usr/bin/env node
// Soak benchmark: many short episodes over many sessions across the three transports (WebSocket,
// HTTP, gRPC), with random disconnects, cancels, client timeouts and hostile actions mixed in,
// against the real `gauntlet-env serve` process. Reports episodes/s, step p50/p99, the server's
// RSS and Chromium process count at start and end, sessions leaked and 5xx replies (targets: 0).
// The same-run baseline is a clean phase (no chaos) on the same server before the soak.
// Run `npm run build` first. Prints one JSON document; progress goes to stderr.
// Usage: node bench/soak.mjs [--episodes N] [--sessions N] [--seed N] [--quick]
import { spawn } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    episodes: { type: 'string', default: '10000' },
    sessions: { type: 'string', default: '16' },
    seed: { type: 'string', default: '1' },
    quick: { type: 'boolean', default: false },
    help: { type: 'boolean', default: false },
  },
});
if (values.help) {
  process.stdout.write('node bench/soak.mjs [--episodes 10000] [--sessions 16] [--seed 1] [--quick (400 episodes)]\n');
  process.exit(0);
}
const EPISODES = values.quick ? 400 : Number(values.episodes);
const SESSIONS = Number(values.sessions);
const log = (message) => process.stderr.write(`[soak] ${message}\n`);
const { createEnvClient } = await import('../proto/dist/client/index.js');

// Seeded so two runs mix the same chaos in the same order.
const { seededRandom: rng } = await import('../proto/dist/random/index.js');

/** Inputs that crashed, froze or wedged the server before; each must now be an action error. */
const HOSTILE = [
  `click('${'a'.repeat(28)}!')`,
  `click('${'a'.repeat(10_000)}!')`,
  'a'.repeat(20_000),
  'scroll(0, 1e39)',
  'noop(1e39)',
  'new_tab()\n'.repeat(20),
  'new_tab()',
  `fill('1', '${'x'.repeat(2000)}')`,
  "goto('data:text/html,<script>1</script>')",
  "upload_file('1', '')",
  "press('1', 'NotAKey')",
  `click(${'['.repeat(5000)})`,
];

function startServer() {
  const child = spawn(
    process.execPath,
    [
      'env-server/bin/cli.js',
      'serve',
      '--host',
      '127.0.0.1',
      '--port',
      '0',
      '--grpc-port',
      '0',
      '--max-sessions',
      String(SESSIONS + 4),
      '--warm',
      '4',
    ],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const line = /listening on .*/.exec(out)?.[0];
      if (line)
        resolve({ child, url: /(http:\/\/[\d.:]+)/.exec(line)[1], grpcUrl: /(grpc:\/\/[\d.:]+)/.exec(line)[1] });
    });
    child.once('exit', (code) => reject(new Error(`gauntlet-env exited with ${code} before listening`)));
  });
}

/** The server's descendants whose name says Chromium (Linux /proc): their pids. */
function chromiumPids(root) {
  const parents = new Map();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      parents.set(Number(entry), { ppid: Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]), name });
    } catch {
      // exited while we looked
    }
  }
  const isDescendant = (pid) => {
    for (let p = parents.get(pid)?.ppid; p; p = parents.get(p)?.ppid) if (p === root) return true;
    return false;
  };
  return [...parents]
    .filter(([pid, { name }]) => /chrom|headless_shell/i.test(name) && isDescendant(pid))
    .map(([pid]) => pid);
}

/** Chromium's processes and their memory: the sum of each one's proportional share (Pss), so shared pages count once. */
function chromiumMemory(root) {
  const pids = chromiumPids(root);
  let kb = 0;
  for (const pid of pids) {
    try {
      kb += Number(/^Pss:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'))?.[1] ?? 0);
    } catch {
      // exited while we looked
    }
  }
  return { chromium_processes: pids.length, chromium_pss_mb: +(kb / 1024).toFixed(1) };
}

/** The first and last quarter's medians of one sampled figure, their ratio, and the peak. */
function trend(samples, key) {
  const values = samples.map((sample) => sample[key]).filter(Number.isFinite);
  if (values.length < 4) return { samples: values.length };
  const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];
  const quarter = Math.max(1, Math.floor(values.length / 4));
  const first = median(values.slice(0, quarter));
  const last = median(values.slice(-quarter));
  return {
    samples: values.length,
    first_quarter_median: first,
    last_quarter_median: last,
    last_vs_first: +(last / first).toFixed(3),
    max: Math.max(...values),
  };
}

async function metric(url, name) {
  const text = await (await fetch(`${url}/metrics`)).text();
  return Number(new RegExp(`^${name} ([\\d.e+]+)$`, 'm').exec(text)?.[1] ?? NaN);
}

const clickBid = (result) => /\[(\w+)\] button 'Click Me!'/.exec(result.observation.axtree_txt)?.[1];

/** Error classes that are the server's fault (5xx) unless the client asked for the deadline. */
function isServerFault(error, ownDeadline) {
  const status = error?.httpStatus ?? 500;
  if (error?.code === 'DEADLINE_EXCEEDED' && ownDeadline) return false;
  if (error?.code === 'CAPACITY_REACHED') return false;
  return status >= 500;
}

/**
 * One session's worth of episodes. Each episode: reset click-test, then usually click the button;
 * with the chaos mix on, sometimes a hostile action first, a step cancelled or timed out by the
 * client, or a disconnect mid-step (the client is dropped and a new one opened).
 */
async function sessionLoop({ url, transport, episodes, chaos, random, stats }) {
  let env = createEnvClient(url, { transport });
  const reopen = async () => {
    await env.close().catch(() => undefined);
    env = createEnvClient(url, { transport });
  };
  for (let i = 0; i < episodes; i += 1) {
    const roll = chaos ? random() : 1;
    try {
      const first = await env.reset({ task_name: 'click-test', seed: Math.floor(random() * 1e6) });
      stats.episodes += 1;
      if (roll < 0.1) {
        const action = HOSTILE[Math.floor(random() * HOSTILE.length)];
        const result = await env.step(action, { timeoutMs: 30_000 });
        stats.hostile += 1;
        if (result.done) continue;
      } else if (roll < 0.14) {
        const controller = new AbortController();
        const step = env.step('noop(300)', { signal: controller.signal });
        setTimeout(() => controller.abort(), 20);
        await step.catch(() => undefined);
        stats.cancels += 1;
      } else if (roll < 0.18) {
        // Past its deadline a step ends the episode as truncated (the policy's timeout); a client
        // that gave up first sees its own DEADLINE_EXCEEDED. Either way the episode is over.
        await env.step('noop(2000)', { timeoutMs: 500 }).catch((error) => {
          if (isServerFault(error, true)) throw error;
        });
        stats.timeouts += 1;
        continue;
      } else if (roll < 0.22) {
        const step = env.step('noop(200)').catch(() => undefined);
        await new Promise((resolve) => setTimeout(resolve, 10));
        await reopen();
        await step;
        stats.disconnects += 1;
        continue;
      }
      const bid = clickBid(first);
      const started = performance.now();
      const result = await env.step(`click('${bid}')`, { timeoutMs: 30_000 });
      stats.stepMs.push(performance.now() - started);
      stats.clicked += 1;
      if (result.reward === 1) stats.solved += 1;
    } catch (error) {
      if (isServerFault(error, false)) {
        stats.serverFaults += 1;
        if (stats.faultSamples.length < 5) stats.faultSamples.push(`${transport}: ${error.name}: ${error.message}`);
      } else {
        stats.clientErrors += 1;
      }
      await reopen();
    }
  }
  await env.close().catch(() => undefined);
}

async function phase(server, episodes, chaos, seed) {
  const transports = ['ws', 'http', 'grpc'];
  const stats = {
    /** Episodes reset (every one played to its end, whatever the chaos did to it). */
    episodes: 0,
    /** Episodes that reached the click (the rest were ended by the chaos mix). */
    clicked: 0,
    solved: 0,
    hostile: 0,
    cancels: 0,
    timeouts: 0,
    disconnects: 0,
    serverFaults: 0,
    clientErrors: 0,
    stepMs: [],
    faultSamples: [],
  };
  const perSession = Math.ceil(episodes / SESSIONS);
  const started = performance.now();
  const progress = setInterval(() => log(`${chaos ? 'soak' : 'baseline'}: ${stats.episodes} episodes done`), 10_000);
  await Promise.all(
    Array.from({ length: SESSIONS }, (_, i) => {
      const transport = transports[i % transports.length];
      const url =
        transport === 'grpc' ? server.grpcUrl : transport === 'ws' ? server.url.replace(/^http/, 'ws') : server.url;
      return sessionLoop({ url, transport, episodes: perSession, chaos, random: rng(seed + i), stats });
    }),
  );
  clearInterval(progress);
  const seconds = (performance.now() - started) / 1000;
  const sorted = stats.stepMs.sort((a, b) => a - b);
  const pct = (p) => +(sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0).toFixed(1);
  return {
    episodes: stats.episodes,
    episodes_per_s: +(stats.episodes / seconds).toFixed(1),
    step_p50_ms: pct(0.5),
    step_p99_ms: pct(0.99),
    clicked: stats.clicked,
    solved_fraction_of_clicked: +(stats.solved / Math.max(1, stats.clicked)).toFixed(3),
    mixed_in: {
      hostile_actions: stats.hostile,
      cancels: stats.cancels,
      client_timeouts: stats.timeouts,
      disconnects: stats.disconnects,
    },
    server_faults_5xx: stats.serverFaults,
    fault_samples: stats.faultSamples,
    client_errors: stats.clientErrors,
    seconds: +seconds.toFixed(1),
  };
}

const loadBefore = loadavg()[0];
const server = await startServer();
const rssMb = async () =>
  +((await metric(server.url, 'gauntlet_env_process_resident_memory_bytes')) / 2 ** 20).toFixed(1);
log(`server on ${server.url} / ${server.grpcUrl}; baseline phase`);
const baseline = await phase(server, Math.max(SESSIONS * 10, Math.floor(EPISODES / 10)), false, Number(values.seed));
const start = { rss_mb: await rssMb(), ...chromiumMemory(server.child.pid) };
log(`soak phase: ${EPISODES} episodes over ${SESSIONS} sessions`);
// Memory every 5 s through the soak: "flat" compares the last quarter's median with the first's
// (a single end-vs-start pair mostly measures when V8 last collected).
const samples = [];
const sampler = setInterval(async () => {
  const rss = await rssMb().catch(() => NaN);
  samples.push({ rss_mb: rss, ...chromiumMemory(server.child.pid) });
}, 5_000);
const soak = await phase(server, EPISODES, true, Number(values.seed) + 1000);
clearInterval(sampler);
// Disconnected sessions are closed by the server when it notices; give it a moment to.
let leaked = await metric(server.url, 'gauntlet_env_sessions_active');
for (let tries = 0; leaked > 0 && tries < 50; tries += 1) {
  await new Promise((resolve) => setTimeout(resolve, 100));
  leaked = await metric(server.url, 'gauntlet_env_sessions_active');
}
const end = { rss_mb: await rssMb(), ...chromiumMemory(server.child.pid) };
const unexpected = await metric(server.url, 'gauntlet_env_unexpected_errors');
const aliveAtEnd = server.child.exitCode === null;
server.child.kill('SIGTERM');

process.stdout.write(
  JSON.stringify(
    {
      machine: {
        cpus: cpus().length,
        node: process.version,
        load_average_1m: { start: +loadBefore.toFixed(2), end: +loadavg()[0].toFixed(2) },
      },
      sessions: SESSIONS,
      transports: ['ws', 'http', 'grpc'],
      baseline_clean: baseline,
      soak,
      soak_vs_baseline_episodes_per_s: +(soak.episodes_per_s / baseline.episodes_per_s).toFixed(3),
      server: {
        start,
        end,
        memory_trend: { server_rss_mb: trend(samples, 'rss_mb'), chromium_pss_mb: trend(samples, 'chromium_pss_mb') },
        sessions_leaked: leaked,
        unexpected_errors: unexpected,
        alive_at_end: aliveAtEnd,
      },
      targets: {
        sessions_leaked: 0,
        server_faults_5xx: 0,
        memory_trend_last_vs_first: 'within 0.8–1.2 (server and Chromium)',
      },
    },
    null,
    2,
  ) + '\n',
);
