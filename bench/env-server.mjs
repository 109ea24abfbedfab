#!/usr/bin/env node
// env-server benchmark: reset/step latency, throughput at 1/4/8/16 sessions, new-session latency,
// memory per extra session (PSS), and a same-run baseline of raw Playwright doing the same click +
// accessibility snapshot; reset/step on a multi-element built-in task; with MINIWOB_URL (or
// MINIWOB_DIR) set, reset/step on real MiniWoB++ click-test and book-flight next to raw Playwright
// starting the same episodes. Prints one JSON document. Run `npm run build` first.
import { readFileSync, readdirSync } from 'node:fs';
import { loadavg } from 'node:os';
import { chromium } from 'playwright-core';
import { EnvService, DEFAULTS } from '../env-server/dist/index.js';
import { CHROMIUM_FLAGS, findChromium } from '../env-server/dist/browser/executable.js';
import { TASK_ORIGIN } from '../env-server/dist/browser/site.js';
import { benchOptions } from './support/bench-options.mjs';

const { values, number } = benchOptions(
  {
    steps: { type: 'string', default: '200', help: 'steps in the latency loop (throughput and resets scale with it)' },
    quick: { type: 'boolean', default: false, help: 'a 40-step smoke run' },
    'multi-task': { type: 'string', default: 'login-user', help: 'the multi-element built-in task of the task table' },
    'only-tasks': { type: 'boolean', default: false, help: 'only the per-task table (and real MiniWoB++ when set)' },
    help: { type: 'boolean', default: false, help: 'print this help' },
  },
  'Usage: node bench/env-server.mjs [options]   (run `npm run build` first; prints one JSON document)',
);
const STEPS = values.quick ? 40 : number('steps', 8);
const TASK = 'enter-text';
const log = (msg) => process.stderr.write(`[bench] ${msg}\n`);

const pct = (xs, p) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return +sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))].toFixed(2);
};
const summary = (xs) => ({ p50_ms: pct(xs, 50), p95_ms: pct(xs, 95), n: xs.length });

/**
 * Median milliseconds of each phase of the steps seen: the action (`execute` runs it and its
 * flush, `settle` the step's settle), the task's validation, and the observation with its parts.
 */
function phaseMedians() {
  const seen = new Map();
  const add = (name, ms) => typeof ms === 'number' && (seen.get(name) ?? seen.set(name, []).get(name)).push(ms);
  return {
    add(result) {
      const info = result.observation.metadata?.browsergym_info ?? {};
      add('action', info.action_ms);
      for (const [part, ms] of Object.entries(info.action_parts_ms ?? {}))
        if (part !== 'total') add(`action.${part}`, ms);
      add('validate', info.validate_ms);
      add('observe', info.observe_ms);
      for (const [part, ms] of Object.entries(info.observe_parts_ms ?? {}))
        if (part !== 'total') add(`observe.${part}`, ms);
    },
    medians: () => Object.fromEntries([...seen].map(([name, xs]) => [name, pct(xs, 50)])),
  };
}

/** The bid of the task's textbox (a click there never ends the episode). */
const textboxBid = (obs) => /\[(\w+)\] textbox/.exec(obs.axtree_txt)?.[1];
const OBS = { axtree: true, pruned_html: false, extra_properties: false, screenshot: 'none' };

async function stepLoop(service, session, count, onStep) {
  let result = await service.reset(session, { task_name: TASK, seed: 1, observation: OBS });
  for (let i = 0; i < count; i += 1) {
    if (result.done) result = await service.reset(session, { task_name: TASK, seed: i, observation: OBS });
    const t = performance.now();
    result = await service.step(session, { action: { action_str: `click('${textboxBid(result.observation)}')` } });
    onStep?.(performance.now() - t, result);
    if (result.observation.last_action_error) throw new Error(result.observation.error);
  }
}

/**
 * Memory of a process tree: PSS (shared pages split among the processes that map them — the
 * honest per-session cost, since every renderer maps the same Chromium binary) and plain RSS.
 */
function processTreeMemory(rootPid) {
  const children = new Map();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (!children.has(ppid)) children.set(ppid, []);
      children.get(ppid).push(Number(entry));
    } catch {
      /* process exited */
    }
  }
  const total = { pss: 0, rss: 0 };
  const stack = [rootPid];
  while (stack.length) {
    const pid = stack.pop();
    try {
      const rollup = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
      total.pss += Number(/^Pss:\s+(\d+) kB/m.exec(rollup)?.[1] ?? 0) * 1024;
      total.rss += Number(/^Rss:\s+(\d+) kB/m.exec(rollup)?.[1] ?? 0) * 1024;
    } catch {
      /* gone */
    }
    stack.push(...(children.get(pid) ?? []));
  }
  return total;
}

/** New sessions with no warm pool: a browser context and page created on demand. */
async function coldSessionLatency(chromiumArgs) {
  const cold = new EnvService({
    ...structuredClone(DEFAULTS),
    maxSessions: 40,
    warmContexts: 0,
    idleTtlMs: 0,
    chromiumArgs,
  });
  await cold.start();
  const times = [];
  for (let i = 0; i < 10; i += 1) {
    const t = performance.now();
    const s = await cold.openSession('inproc');
    times.push(performance.now() - t);
    await cold.close(s, 'client');
  }
  await cold.shutdown();
  return summary(times);
}

async function benchEnv() {
  const chromiumArgs = process.env.GAUNTLET_CHROMIUM_ARGS ? process.env.GAUNTLET_CHROMIUM_ARGS.split(',') : [];
  const service = new EnvService({
    ...structuredClone(DEFAULTS),
    maxSessions: 40,
    warmContexts: 2,
    idleTtlMs: 0,
    chromiumArgs,
  });
  await service.start();
  const out = {};

  log('reset latency');
  const session = await service.openSession('inproc');
  await service.reset(session, { task_name: TASK, seed: 0, observation: OBS });
  const resets = [];
  for (let i = 0; i < STEPS / 2; i += 1) {
    const t = performance.now();
    await service.reset(session, { task_name: TASK, seed: i, observation: OBS });
    resets.push(performance.now() - t);
  }
  out.reset = summary(resets);

  log('step latency (click + AXTree, no screenshot)');
  const steps = [];
  const phases = phaseMedians();
  await stepLoop(service, session, STEPS, (ms, result) => {
    steps.push(ms);
    phases.add(result);
  });
  out.step = summary(steps);
  out.step_phase_p50_ms = phases.medians();
  const withAll = [];
  await service.reset(session, {
    task_name: TASK,
    seed: 1,
    observation: { ...OBS, pruned_html: true, extra_properties: true },
  });
  let r = await service.reset(session, {
    task_name: TASK,
    seed: 1,
    observation: { ...OBS, pruned_html: true, extra_properties: true },
  });
  for (let i = 0; i < STEPS / 4; i += 1) {
    if (r.done)
      r = await service.reset(session, {
        task_name: TASK,
        seed: i,
        observation: { ...OBS, pruned_html: true, extra_properties: true },
      });
    const t = performance.now();
    r = await service.step(session, { action: { action_str: `click('${textboxBid(r.observation)}')` } });
    withAll.push(performance.now() - t);
  }
  out.step_full_observation = summary(withAll);
  await service.close(session, 'client');

  out.throughput_steps_per_s = {};
  for (const n of [1, 4, 8, 16]) {
    log(`throughput with ${n} sessions`);
    const sessions = await Promise.all(Array.from({ length: n }, () => service.openSession('inproc')));
    const perSession = Math.max(10, Math.floor((STEPS * 2) / n));
    const t = performance.now();
    await Promise.all(sessions.map((s) => stepLoop(service, s, perSession)));
    const seconds = (performance.now() - t) / 1000;
    out.throughput_steps_per_s[n] = +((n * perSession) / seconds).toFixed(1);
    await Promise.all(sessions.map((s) => service.close(s, 'client')));
  }

  log('new-session latency');
  const opens = [];
  for (let i = 0; i < 10; i += 1) {
    const t = performance.now();
    const s = await service.openSession('inproc');
    opens.push(performance.now() - t);
    await service.close(s, 'client');
    // Let the pool refill so each open measures the warm path a real client sees between episodes.
    await service.pool.start();
  }
  out.new_session = summary(opens);
  out.new_session_cold = await coldSessionLatency(chromiumArgs);

  log('memory per extra session');
  const pid = service.pool.browserPid();
  const base = await Promise.all(Array.from({ length: 2 }, () => service.openSession('inproc')));
  for (const s of base) await service.reset(s, { task_name: TASK, seed: 1, observation: OBS });
  const before = processTreeMemory(pid);
  const heapBefore = process.memoryUsage().rss;
  const extra = await Promise.all(Array.from({ length: 10 }, () => service.openSession('inproc')));
  for (const s of extra) await service.reset(s, { task_name: TASK, seed: 1, observation: OBS });
  const after = processTreeMemory(pid);
  const nodeDelta = process.memoryUsage().rss - heapBefore;
  out.memory_per_extra_session_mb = +((after.pss - before.pss + nodeDelta) / 10 / 2 ** 20).toFixed(1);
  out.memory_per_extra_session_rss_mb = +((after.rss - before.rss + nodeDelta) / 10 / 2 ** 20).toFixed(1);
  await service.shutdown();
  return out;
}

/** Raw Playwright on the same task page (served the same way), clicking the same textbox. */
async function benchBaseline(site) {
  const browser = await chromium.launch({ executablePath: findChromium().path, args: CHROMIUM_FLAGS });
  const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
  await context.route(`${TASK_ORIGIN}/**`, (route) => {
    const asset = site.get(new URL(route.request().url()).pathname);
    return route.fulfill({ body: Buffer.from(asset.body), contentType: asset.contentType });
  });
  const page = await context.newPage();
  await page.goto(`${TASK_ORIGIN}/miniwob/${TASK}.html`);
  await page.evaluate((seed) => window.gauntletTask.reset(seed), 1);
  const textbox = page.getByRole('textbox').first();
  const times = [];
  for (let i = 0; i < STEPS; i += 1) {
    const t = performance.now();
    await textbox.click();
    await page.locator('body').ariaSnapshot();
    times.push(performance.now() - t);
  }
  await browser.close();
  return summary(times);
}

// The 1-minute load average before and after: figures from a loaded machine are recognisable.
const LOAD_BEFORE = loadavg();
const { benchTasks } = await import('./env-server-tasks.mjs');
const tasks = await benchTasks({ rounds: Math.max(10, Math.floor(STEPS / 4)), multiTask: values['multi-task'], log });
let env = {};
let baselineFigures = {};
if (!values['only-tasks']) {
  env = await benchEnv();
  log('baseline: raw Playwright click + aria snapshot');
  const { miniwobSite } = await import('../env-server/dist/tasks/miniwob/index.js');
  const baseline = await benchBaseline(miniwobSite);
  baselineFigures = {
    baseline_raw_playwright_step: baseline,
    step_overhead_ratio_p50: +(env.step.p50_ms / baseline.p50_ms).toFixed(2),
  };
}
const result = {
  machine: {
    cpus: (await import('node:os')).cpus().length,
    node: process.version,
    load_before: LOAD_BEFORE,
    load_after: loadavg(),
  },
  task: TASK,
  ...env,
  ...baselineFigures,
  tasks,
  targets: {
    reset_p50_ms: 30,
    step_p50_ms: 25,
    steps_per_s_8_sessions: 100,
    new_session_ms: 150,
    memory_per_session_mb: 40,
  },
  task_origin: TASK_ORIGIN,
};
process.stdout.write(JSON.stringify(result, null, 2) + '\n');
