// The stages of bench/sft-grpo.mjs that run services side by side: evaluating adapters behind a
// policy server, and a GRPO run with its worker processes.
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startBin } from './processes.mjs';
import { runBin } from './run-bin.mjs';

/**
 * Serves `model` with `adapters` ([name, dir] pairs) and evaluates each (and first the
 * adapter-free model when `base`) with `gauntlet-worker eval`. Returns { row: { task: success } },
 * rows named `base` and after the adapters.
 */
export async function evaluatePolicies({ model, adapters, base = false, grpc, tasks, evalArgs, threads, log }) {
  const args = ['serve', '--model', model, '--served-model-name', 'tiny', '--port', '0', '--threads', threads];
  for (const [name, dir] of adapters) args.push('--adapter', `${name}=${dir}`);
  const server = await startBin('trainer', args, /serving .* at (http:\/\/\S+)/);
  const rows = {};
  try {
    for (const [name] of [...(base ? [[null]] : []), ...adapters]) {
      const row = name ?? 'base';
      const policy = ['--policy', server.match[1], '--model', 'tiny', ...(name ? ['--adapter', name] : [])];
      const taskArgs = tasks.flatMap((t) => ['--task', t]);
      const report = JSON.parse(
        await runBin('rollout-worker', ['eval', '--env', grpc, ...policy, ...taskArgs, ...evalArgs, '--json']),
      );
      rows[row] = Object.fromEntries(report.tasks.map((t) => [t.task, t.success_rate]));
      log(`${row}: ${report.tasks.map((t) => `${t.task} ${t.success_rate}`).join(', ')}`);
    }
  } finally {
    await server.stop();
  }
  return rows;
}

/**
 * `gauntlet-trainer grpo` (trainerArgs) with its in-process policy server and `workers` worker
 * processes, until it finishes or `minutes` pass (then SIGTERM: the running update ends and a
 * checkpoint is saved). Returns the adapter it leaves (final/, else the newest checkpoint's, else
 * `initAdapter` when no update finished) and the number of updates. `onProcess(stop)` sees each
 * process it starts, so an interrupted bench can stop them.
 */
export async function runGrpo({
  grpc,
  trainerArgs,
  outputDir,
  initAdapter,
  workers,
  workerArgs,
  minutes,
  onLine,
  onProcess = () => {},
}) {
  const trainer = await startBin(
    'trainer',
    ['grpo', ...trainerArgs, '--output-dir', outputDir, '--port', '0'],
    /policy server (http:\/\/\S+?);/,
    {
      onLine,
      timeoutMs: 300_000,
    },
  );
  onProcess(trainer.stop);
  const running = [];
  try {
    for (let i = 0; i < workers; i++) {
      const worker = await startBin(
        'rollout-worker',
        ['run', '--env', grpc, '--policy', trainer.match[1], ...workerArgs, '--metrics-port', '0'],
        /./,
      );
      onProcess(worker.stop);
      running.push(worker);
    }
    const timer = setTimeout(() => void trainer.stop(), minutes * 60_000);
    const code = await trainer.exited;
    clearTimeout(timer);
    // 0: --grpo-steps done; 130: stopped at --minutes; anything else: it failed (output above).
    onLine?.(`grpo exited with ${code ?? 'a signal'}`);
  } finally {
    await trainer.stop();
    for (const worker of running) await worker.stop();
  }
  const updates = (await readFile(join(outputDir, 'metrics.jsonl'), 'utf8').catch(() => ''))
    .split('\n')
    .filter(Boolean).length;
  if (existsSync(join(outputDir, 'final', 'adapter_config.json')))
    return { adapter: join(outputDir, 'final'), updates };
  const checkpoints = (await readdir(join(outputDir, 'checkpoints')).catch(() => []))
    .filter((c) => /^checkpoint-\d+$/.test(c))
    .sort((a, b) => Number(a.slice(11)) - Number(b.slice(11)));
  const last = checkpoints.at(-1);
  return { adapter: last ? join(outputDir, 'checkpoints', last, 'adapter') : initAdapter, updates };
}
