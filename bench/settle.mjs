#!/usr/bin/env node
// Smart settle against BrowserGym's fixed 0.5 s, measured in the same run: reset and step
// (click + AXTree) p50/p95 on real MiniWoB++ pages (click-test, book-flight, delayed-reveal: our
// MiniWoB-protocol fixture pages, or a real copy with MINIWOB_URL / MINIWOB_DIR) and on built-in
// tasks, one server per mode, the modes taking turns round by round. Prints one JSON document
// with the machine's load. Run `npm run build` first.
// Usage: node bench/settle.mjs [--rounds N]
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { EnvService, DEFAULTS } from '../env-server/dist/index.js';
import { resolveConfig } from '../env-server/dist/config.js';

const { values } = parseArgs({ options: { rounds: { type: 'string', default: '30' } } });
const ROUNDS = Number(values.rounds);
const OBS = { axtree: true, pruned_html: false, extra_properties: false, screenshot: 'none' };
const FIXTURE_DIR = fileURLToPath(new URL('../env-server/test/fixtures/miniwob-plusplus/miniwob', import.meta.url));
const TASKS = [
  'miniwob.click-test',
  'miniwob.book-flight',
  // Its "Show" reveals "Done" 300 ms later: a step that must wait (jQuery UI's autocomplete delay).
  'miniwob.delayed-reveal',
  'miniwob-builtin.click-test',
  'miniwob-builtin.enter-text',
  'miniwob-builtin.login-user',
];
const log = (msg) => process.stderr.write(`[bench] ${msg}\n`);

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

/** One round on one server: a timed reset, then timed steps until the episode ends (at most 3). */
async function round(service, session, task, seed, into) {
  let t = performance.now();
  let result = await service.reset(session, { task_name: task, seed, observation: OBS });
  into.reset.push(performance.now() - t);
  for (let i = 0; i < 3 && !result.done; i += 1) {
    t = performance.now();
    result = await service.step(session, { action: { action_str: actionFor(result.observation.axtree_txt) } });
    into.step.push(performance.now() - t);
    if (result.observation.last_action_error) throw new Error(`${task}: ${result.observation.error}`);
  }
}

const fromEnv = resolveConfig({});
const source =
  fromEnv.miniwobUrl || fromEnv.miniwobDir
    ? { miniwobUrl: fromEnv.miniwobUrl, miniwobDir: fromEnv.miniwobDir }
    : { miniwobDir: FIXTURE_DIR };
const modes = ['smart', 'browsergym'];
const servers = {};
for (const settle of modes) {
  const service = new EnvService({ ...structuredClone(DEFAULTS), ...source, settle, warmContexts: 1, idleTtlMs: 0 });
  await service.start();
  servers[settle] = { service, session: await service.openSession('inproc') };
}
const loadBefore = loadavg();
const figures = {};
for (const task of TASKS) {
  if (!servers.smart.service.registry.names().includes(task)) {
    figures[task] = 'not served here';
    continue;
  }
  log(task);
  const samples = Object.fromEntries(modes.map((m) => [m, { reset: [], step: [] }]));
  for (const m of modes) await round(servers[m].service, servers[m].session, task, 0, { reset: [], step: [] }); // warm-up
  for (let seed = 1; seed <= ROUNDS; seed += 1)
    for (const m of modes) await round(servers[m].service, servers[m].session, task, seed, samples[m]);
  figures[task] = Object.fromEntries(
    modes.map((m) => [m, { reset: summary(samples[m].reset), step: summary(samples[m].step) }]),
  );
  figures[task].step_p50_ratio_browsergym_over_smart = +(
    figures[task].browsergym.step.p50_ms / figures[task].smart.step.p50_ms
  ).toFixed(1);
}
for (const m of modes) await servers[m].service.shutdown();
const result = {
  machine: { cpus: cpus().length, node: process.version, load_before: loadBefore, load_after: loadavg() },
  miniwob_pages: source.miniwobUrl ?? (source.miniwobDir === FIXTURE_DIR ? 'test fixtures' : source.miniwobDir),
  rounds: ROUNDS,
  tasks: figures,
  targets: { real_miniwob_step_p50_ms_smart: 60 },
};
process.stdout.write(JSON.stringify(result, null, 2) + '\n');
