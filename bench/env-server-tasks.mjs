// Reset and step p50 per task for bench/env-server.mjs: a multi-element built-in task, and real
// MiniWoB++ click-test and book-flight when MINIWOB_URL (or MINIWOB_DIR) is set, each next to a
// same-run baseline of raw Playwright starting the same episode (load the page, BrowserGym's
// start script, WOB_TASK_READY, the goal) without observing it.
import { chromium } from 'playwright-core';
import { EnvService, DEFAULTS } from '../env-server/dist/index.js';
import { resolveConfig } from '../env-server/dist/config.js';
import { CHROMIUM_FLAGS, findChromium } from '../env-server/dist/browser/executable.js';
import { miniwobPageSeed } from '../env-server/dist/tasks/miniwob-plusplus/numpy-seed.js';
import {
  readGoalInPage,
  startEpisodeInPage,
  taskReadyInPage,
} from '../env-server/dist/tasks/miniwob-plusplus/page-protocol.js';

const OBS = { axtree: true, pruned_html: false, extra_properties: false, screenshot: 'none' };
const REAL_TASKS = ['click-test', 'book-flight'];

const pct = (xs, p) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return +sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))].toFixed(2);
};
const summary = (xs) => ({ p50_ms: pct(xs, 50), p95_ms: pct(xs, 95), n: xs.length });

/** The first textbox, else the first button: a click an agent would make. */
function actionFor(axtree) {
  const bid = /\[(\w+)\] textbox/.exec(axtree)?.[1] ?? /\[(\w+)\] button/.exec(axtree)?.[1];
  if (!bid) throw new Error(`nothing to click in\n${axtree.slice(0, 400)}`);
  return `click('${bid}')`;
}

/** Warm-session reset p50 over `rounds` seeds, and click + AXTree step p50 (resetting when an episode ends). */
async function latency(service, task, rounds) {
  const session = await service.openSession('inproc');
  let result = await service.reset(session, { task_name: task, seed: 0, observation: OBS });
  const resets = [];
  for (let seed = 1; seed <= rounds; seed += 1) {
    const t = performance.now();
    result = await service.reset(session, { task_name: task, seed, observation: OBS });
    resets.push(performance.now() - t);
  }
  const steps = [];
  for (let i = 0; i < rounds; i += 1) {
    if (result.done) result = await service.reset(session, { task_name: task, seed: i, observation: OBS });
    const t = performance.now();
    result = await service.step(session, { action: { action_str: actionFor(result.observation.axtree_txt) } });
    steps.push(performance.now() - t);
  }
  await service.close(session, 'client');
  return { reset: summary(resets), step: summary(steps) };
}

/** Raw Playwright starting the same real MiniWoB++ episodes, with no observation. */
async function rawStarts(url, rounds, display) {
  const browser = await chromium.launch({ executablePath: findChromium().path, args: CHROMIUM_FLAGS });
  const context = await browser.newContext({
    viewport: { width: display.width, height: display.height },
    deviceScaleFactor: display.deviceScaleFactor,
  });
  const page = await context.newPage();
  const times = [];
  for (let seed = 0; seed <= rounds; seed += 1) {
    const t = performance.now();
    await page.goto(url);
    await page.evaluate(startEpisodeInPage, { pageSeed: miniwobPageSeed(seed), maxTimeMs: 1_000_000 });
    await page.waitForFunction(taskReadyInPage);
    await page.evaluate(readGoalInPage);
    if (seed > 0) times.push(performance.now() - t);
  }
  await browser.close();
  return summary(times);
}

export async function benchTasks({ rounds, multiTask, log }) {
  const out = {};
  const builtin = new EnvService({ ...structuredClone(DEFAULTS), maxSessions: 4, warmContexts: 1, idleTtlMs: 0 });
  await builtin.start();
  log(`reset/step on the built-in ${multiTask}`);
  out[`builtin.${multiTask}`] = await latency(builtin, multiTask, rounds);
  await builtin.shutdown();

  const fromEnv = resolveConfig({});
  if (!fromEnv.miniwobUrl && !fromEnv.miniwobDir) {
    out.real_miniwob = 'skipped: set MINIWOB_URL (or MINIWOB_DIR) to a MiniWoB++ html/miniwob/ copy';
    return out;
  }
  const real = new EnvService({
    ...structuredClone(DEFAULTS),
    miniwobUrl: fromEnv.miniwobUrl,
    miniwobDir: fromEnv.miniwobDir,
    maxSessions: 4,
    warmContexts: 1,
    idleTtlMs: 0,
  });
  await real.start();
  for (const name of REAL_TASKS) {
    log(`reset/step on real MiniWoB++ ${name}`);
    const task = real.registry.resolve(`miniwob.${name}`);
    const measured = await latency(real, `miniwob.${name}`, rounds);
    // The raw baseline needs the page reachable without our routes: only for an http(s) copy.
    const url = fromEnv.miniwobUrl ? `${new URL(fromEnv.miniwobUrl).href.replace(/\/?$/, '/')}${name}.html` : null;
    out[`miniwob.${name}`] = {
      ...measured,
      baseline_raw_playwright_reset: url ? await rawStarts(url, rounds, task.display) : 'needs MINIWOB_URL',
    };
  }
  await real.shutdown();
  return out;
}
