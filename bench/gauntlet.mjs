#!/usr/bin/env node
// Gauntlet benchmark: full 30-step runs played by the built-in oracle through the in-process env
// (wall time per run, env time per challenge type, time spent in the puzzles' own waits), the
// cost of a start_step=30 fast-forward, and a same-run baseline: one MiniWoB click-test step and
// one gauntlet noop(0) step (the env's fixed cost per action on each page). Prints one JSON
// document. Run `npm run build` first.
// Usage: node bench/gauntlet.mjs [--runs N] [--quick]
import { parseArgs } from 'node:util';
import { EnvService, DEFAULTS } from '../env-server/dist/index.js';
import { progress, runGauntletOracleEpisode } from '../env-server/dist/collect/gauntlet/rollout.js';
import { sessionEnv } from '../env-server/dist/cli/in-process-envs.js';
import { attempts } from '../env-server/dist/collect/gauntlet/metrics.js';

const { values } = parseArgs({
  options: { runs: { type: 'string', default: '5' }, quick: { type: 'boolean', default: false } },
});
const RUNS = values.quick ? 2 : Number(values.runs);
const log = (msg) => process.stderr.write(`[bench] ${msg}\n`);
const OBS = { axtree: true, pruned_html: false, extra_properties: false, screenshot: 'none' };

const pct = (xs, p) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return +sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))].toFixed(1);
};
const mean = (xs) => +(xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length)).toFixed(1);
const waitMs = (action) => [...action.matchAll(/noop\((\d+)\)/g)].reduce((sum, m) => sum + Number(m[1]), 0);

const service = new EnvService({ ...structuredClone(DEFAULTS), warmContexts: 0, maxSessions: 2, idleTtlMs: 0 });
await service.start();
const session = await service.openSession('inproc');
const port = sessionEnv(service, session);

// Warm the browser and the page once, outside the measurements.
await runGauntletOracleEpisode(port, 'gauntlet:slider', 0);

const runs = [];
const perType = {};
for (let seed = 1; seed <= RUNS; seed++) {
  const episode = await runGauntletOracleEpisode(port, 'gauntlet', seed);
  const { solved, total } = progress(episode);
  log(
    `run seed ${seed}: ${solved}/${total} steps, ${episode.turns.length} actions, ${(episode.wall_ms / 1000).toFixed(1)} s`,
  );
  runs.push(episode);
  for (const attempt of attempts(episode)) {
    const t = (perType[attempt.type] ??= { steps: 0, actions: [], env_ms: [], wall_ms: [], wait_ms: [] });
    t.steps += 1;
    t.actions.push(attempt.turns.length);
    t.env_ms.push(attempt.turns.reduce((s, x) => s + x.env_ms, 0));
    t.wall_ms.push(attempt.turns.reduce((s, x) => s + x.step_ms, 0));
    t.wait_ms.push(attempt.turns.reduce((s, x) => s + waitMs(x.action), 0));
  }
}

log('start_step=30 fast-forward');
const forward = [];
for (let seed = 1; seed <= Math.min(RUNS, 3); seed++) {
  const t0 = performance.now();
  await service.reset(session, { task_name: 'gauntlet', seed, options: { start_step: 30 }, observation: OBS });
  forward.push((performance.now() - t0) / 1000);
}

log('baseline: one click-test step and one gauntlet noop(0) step');
const stepTimes = async (task, action, n) => {
  const times = [];
  for (let i = 0; i < n; i++) {
    let result = await service.reset(session, { task_name: task, seed: i, observation: OBS });
    const bid = /\[(\w+)\] button 'Click Me!'/.exec(result.observation.axtree_txt)?.[1];
    const t0 = performance.now();
    result = await service.step(session, { action: { action_str: action(bid) } });
    times.push(performance.now() - t0);
  }
  return { p50_ms: pct(times, 50), p95_ms: pct(times, 95), n };
};
const clickTest = await stepTimes('click-test', (bid) => `click('${bid}')`, 30);
const gauntletNoop = await stepTimes('gauntlet', () => 'noop(0)', 30);
await service.shutdown();

const walls = runs.map((r) => r.wall_ms / 1000);
const result = {
  bench: 'gauntlet',
  runs: RUNS,
  full_run: {
    success_rate: mean(runs.map((r) => (r.outcome === 'success' ? 1 : 0))),
    steps_solved_mean: mean(runs.map((r) => progress(r).solved)),
    wall_s: { p50: pct(walls, 50), mean: mean(walls), min: pct(walls, 0), max: pct(walls, 100) },
    actions_mean: mean(runs.map((r) => r.turns.length)),
    puzzle_wait_s_mean: mean(runs.map((r) => r.turns.reduce((s, t) => s + waitMs(t.action), 0) / 1000)),
  },
  per_type: Object.fromEntries(
    Object.entries(perType)
      .sort()
      .map(([type, t]) => [
        type,
        {
          steps: t.steps,
          actions_mean: mean(t.actions),
          env_ms_mean: mean(t.env_ms),
          wall_ms_mean: mean(t.wall_ms),
          puzzle_wait_ms_mean: mean(t.wait_ms),
        },
      ]),
  ),
  start_step_30_reset_s: { mean: mean(forward), max: pct(forward, 100) },
  baseline_same_run: { miniwob_click_test_step: clickTest, gauntlet_noop0_step: gauntletNoop },
};
process.stdout.write(JSON.stringify(result, null, 2) + '\n');
