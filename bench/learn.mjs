#!/usr/bin/env node
// GRPO learning benchmark: the real stack on this machine — Redis (a fresh bench-<uuid> prefix,
// removed afterwards), `gauntlet-env serve`, `gauntlet-trainer grpo` (built-in tiny model,
// in-process policy serving) and two `gauntlet-worker run` processes — trains on click-test from
// scratch. Prints one JSON document on stdout: the success-rate curve (per update, with the
// wall time), where it started, the best and last rates, and when it first reached the target;
// writes the curve as an SVG plot (--plot). Progress on stderr. Run `npm run build` first.
// Usage: node bench/learn.mjs [--minutes 10] [--task miniwob.click-test] [--plot learn.svg] [--redis URL]
//        [--group-size 8] [--groups-per-update 4] [--lr 5e-3] [--target 0.9] [-- extra grpo flags]
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Queue } from 'bullmq';
import { QUEUES } from '../proto/dist/rollout/index.js';
import { queueConnection } from '../proto/dist/rollout/queue/index.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    minutes: { type: 'string', default: '10' },
    task: { type: 'string', default: 'miniwob.click-test' },
    plot: { type: 'string', default: 'learn.svg' },
    redis: { type: 'string', default: 'redis://127.0.0.1:6379' },
    'group-size': { type: 'string', default: '8' },
    'groups-per-update': { type: 'string', default: '4' },
    lr: { type: 'string', default: '5e-3' },
    target: { type: 'string', default: '0.9' },
  },
});
const log = (msg) => process.stderr.write(`[learn] ${msg}\n`);
const budgetMs = Number(values.minutes) * 60_000;
const target = Number(values.target);
const connection = queueConnection(values.redis, `bench-${randomUUID()}`);
const output = mkdtempSync(join(tmpdir(), 'gauntlet-learn-'));
const children = [];

/** Starts a bin and resolves with the first output line matching `ready`. */
function start(bin, args, ready) {
  const child = spawn(process.execPath, [join(ROOT, bin), ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let text = '';
  return new Promise((resolve, reject) => {
    const onData = (chunk) => {
      text += chunk;
      const match = ready.exec(text);
      if (match) resolve({ child, match });
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) =>
      reject(new Error(`${bin} exited (${code}) before it was ready:\n${text.slice(-2000)}`)),
    );
  });
}

const freePort = () =>
  new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });

function readCurve() {
  const file = join(output, 'metrics.jsonl');
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line));
}

function svgPlot(points) {
  const [w, h, pad] = [640, 320, 40];
  const tMax = Math.max(1, ...points.map((p) => p.t_s));
  const x = (t) => pad + ((w - 2 * pad) * t) / tMax;
  const y = (v) => h - pad - (h - 2 * pad) * v;
  const path = points.map((p, i) => `${i ? 'L' : 'M'}${x(p.t_s).toFixed(1)},${y(p.success).toFixed(1)}`).join(' ');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" font-family="sans-serif" font-size="12">
<rect width="100%" height="100%" fill="white"/>
<line x1="${pad}" y1="${y(0)}" x2="${w - pad}" y2="${y(0)}" stroke="#888"/><line x1="${pad}" y1="${y(0)}" x2="${pad}" y2="${y(1)}" stroke="#888"/>
<line x1="${pad}" y1="${y(target)}" x2="${w - pad}" y2="${y(target)}" stroke="#c66" stroke-dasharray="4 4"/>
<text x="${pad}" y="${pad - 12}">GRPO on ${values.task}: success rate per update vs wall time (max ${tMax.toFixed(0)} s)</text>
<text x="8" y="${y(1) + 4}">1</text><text x="8" y="${y(0) + 4}">0</text>
<path d="${path}" fill="none" stroke="#36c" stroke-width="2"/>
</svg>
`;
}

let exitCode = 0;
try {
  log(`load ${loadavg()[0].toFixed(2)} on ${cpus().length} cores; output ${output}`);
  const env = await start(
    'env-server/bin/cli.js',
    ['serve', '--port', '0', '--grpc-port', '0', '--host', '127.0.0.1'],
    /gRPC: (grpc:\/\/[^,\s]+)/,
  );
  const port = await freePort();
  const started = Date.now();
  const trainer = await start(
    'trainer/bin/cli.js',
    [
      'grpo',
      '--task',
      values.task,
      '--run-name',
      'learn',
      '--max-steps',
      '100000',
      '--group-size',
      values['group-size'],
      '--groups-per-update',
      values['groups-per-update'],
      '--lr',
      values.lr,
      '--max-turns',
      '2',
      '--max-tokens',
      '16',
      '--constrained',
      '--checkpoint-every',
      '1000',
      '--port',
      String(port),
      '--prefix',
      connection.prefix,
      '--output-dir',
      output,
      ...positionals,
    ],
    /^grpo: run learn/m,
  );
  for (const name of ['w1', 'w2'])
    await start(
      'rollout-worker/bin/cli.js',
      [
        'run',
        '--no-metrics',
        '--env',
        env.match[1],
        '--policy',
        `http://127.0.0.1:${port}`,
        '--prefix',
        connection.prefix,
        '--concurrency',
        '4',
        '--name',
        name,
      ],
      /^worker ready/m,
    );
  log('stack up; training');
  let seen = 0;
  while (Date.now() - started < budgetMs && trainer.child.exitCode === null) {
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const curve = readCurve();
    for (const u of curve.slice(seen))
      log(`update ${u.step}: success ${u.metrics.success_rate?.toFixed(2)} reward ${u.metrics.reward?.toFixed(3)}`);
    seen = curve.length;
  }
  const curve = readCurve().map((u) => ({
    update: u.step,
    t_s: +((u.time - started) / 1000).toFixed(1),
    success: u.metrics.success_rate,
    reward: u.metrics.reward,
    kl: u.metrics.kl ?? null,
  }));
  const reached = curve.find((p) => p.success >= target);
  const window = (ps) => (ps.length ? +(ps.reduce((a, p) => a + p.success, 0) / ps.length).toFixed(3) : null);
  writeFileSync(values.plot, svgPlot(curve));
  console.log(
    JSON.stringify(
      {
        task: values.task,
        budget_s: budgetMs / 1000,
        cores: cpus().length,
        load_at_start: +loadavg()[0].toFixed(2),
        updates: curve.length,
        start_success: window(curve.slice(0, 3)),
        last_success: window(curve.slice(-3)),
        best_success: curve.length ? Math.max(...curve.map((p) => p.success)) : null,
        target,
        reached_target_at_s: reached ? reached.t_s : null,
        plot: values.plot,
        curve,
      },
      null,
      2,
    ),
  );
} catch (error) {
  log(`failed: ${error.stack ?? error}`);
  exitCode = 1;
} finally {
  for (const child of children.reverse()) if (child.exitCode === null) child.kill('SIGTERM');
  await Promise.all(children.map((c) => (c.exitCode === null ? new Promise((r) => c.once('exit', r)) : null)));
  for (const name of Object.values(QUEUES)) {
    const queue = new Queue(name, { connection: connection.redis, prefix: connection.prefix });
    await queue.obliterate({ force: true }).catch(() => {});
    await queue.close();
  }
  rmSync(output, { recursive: true, force: true });
  process.exit(exitCode);
}
