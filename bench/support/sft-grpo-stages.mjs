// The stages of bench/sft-grpo.mjs that run services side by side: evaluating models behind a
// policy server, the oracle on the same seeds, and a GRPO run with its worker processes.
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ROOT, startBin } from './processes.mjs';
import { runBin } from './run-bin.mjs';

/** The built-in MiniWoB-style task names (folders of env-server/src/tasks/miniwob with an index.ts). */
export async function builtinTasks() {
  const dir = join(ROOT, 'env-server/src/tasks/miniwob');
  return (await readdir(dir, { withFileTypes: true }))
    .filter((e) => e.isDirectory() && existsSync(join(dir, e.name, 'index.ts')))
    .map((e) => e.name)
    .sort();
}

/**
 * Evaluates each of `models` ([name, model folder, { adapter, evalArgs }] rows; a null folder is
 * the random policy, which needs no server) with `gauntlet-worker eval`, each folder behind its
 * own `gauntlet-trainer serve`, sampling from `adapter` (a PEFT folder) when given, with the row's
 * own `evalArgs` (e.g. `--demo FILE`) after the shared ones. Returns { name: { task: success rate } }.
 */
export async function evaluateModels({ models, grpc, tasks, evalArgs, threads, log }) {
  const rows = {};
  const taskArgs = tasks.flatMap((t) => ['--task', t]);
  for (const [name, dir, own = {}] of models) {
    const adapter = own.adapter ? ['--adapter', `adapted=${own.adapter}`] : [];
    const server = dir
      ? await startBin(
          'trainer',
          ['serve', '--model', dir, '--served-model-name', 'tiny', ...adapter, '--port', '0', '--threads', threads],
          /serving .* at (http:\/\/\S+)/,
        )
      : undefined;
    try {
      const policy = server ? ['--policy', server.match[1], '--model', 'tiny'] : ['--policy', 'random'];
      if (own.adapter) policy.push('--adapter', 'adapted');
      const args = ['eval', '--env', grpc, ...policy, ...taskArgs, ...evalArgs, ...(own.evalArgs ?? []), '--json'];
      const report = JSON.parse(await runBin('rollout-worker', args));
      rows[name] = Object.fromEntries(report.tasks.map((t) => [t.task, t.success_rate]));
      log(`${name}: ${report.tasks.map((t) => `${t.task} ${t.success_rate}`).join(', ')}`);
    } finally {
      await server?.stop();
    }
  }
  return rows;
}

/** The oracle's success rate per task on `seeds` (a collect run into `out`: the same seeds the models play). */
export async function oracleSuccess({ tasks, seeds, out, args }) {
  await runBin('env-server', ['collect', '--out', out, '--seeds', seeds, ...args]);
  const [run] = await readdir(join(out, 'runs'));
  const metrics = JSON.parse(await readFile(join(out, 'runs', run, 'metrics.json'), 'utf8'));
  return Object.fromEntries(tasks.map((task) => [task, metrics.per_task[task]?.success_rate ?? 0]));
}

/**
 * `gauntlet-trainer grpo --train full` (trainerArgs, with --publish-dir) with its in-process
 * policy server and `workers` worker processes, until it finishes or `minutes` pass (then SIGTERM:
 * the running update ends and a checkpoint is saved). Returns the model folder it leaves (final/,
 * else the newest published version, else `fallback` when no update finished), or with --train
 * lora `fallback` and the adapter (final/, else the newest checkpoint's), and the number of
 * updates. `onProcess(stop)` sees each process it starts, so an interrupted bench can stop them.
 */
export async function runGrpo({
  grpc,
  trainerArgs,
  outputDir,
  fallback,
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
    { onLine, timeoutMs: 300_000 },
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
  if (existsSync(join(outputDir, 'final', 'config.json'))) return { model: join(outputDir, 'final'), updates };
  // --train lora: the SFT model with the last adapter (final/, else the newest checkpoint's).
  if (!trainerArgs.includes('--publish-dir')) {
    const adapter = existsSync(join(outputDir, 'final', 'adapter_config.json'))
      ? join(outputDir, 'final')
      : await newestCheckpointAdapter(join(outputDir, 'checkpoints'));
    return { model: fallback, ...(adapter ? { adapter } : {}), updates };
  }
  const publishDir = trainerArgs[trainerArgs.indexOf('--publish-dir') + 1];
  const versions = (await readdir(publishDir).catch(() => []))
    .map((name) => ({ name, version: Number(/@v(\d+)$/.exec(name)?.[1] ?? -1) }))
    .filter((v) => v.version > 0)
    .sort((a, b) => a.version - b.version);
  const last = versions.at(-1);
  return { model: last ? join(publishDir, last.name) : fallback, updates };
}

/** The adapter/ of the highest checkpoint-<step> under `dir`, or undefined when there is none. */
async function newestCheckpointAdapter(dir) {
  const steps = (await readdir(dir).catch(() => []))
    .map((name) => ({ name, step: Number(/^checkpoint-(\d+)$/.exec(name)?.[1] ?? -1) }))
    .filter((c) => c.step >= 0 && existsSync(join(dir, c.name, 'adapter', 'adapter_config.json')))
    .sort((a, b) => a.step - b.step);
  return steps.length ? join(dir, steps.at(-1).name, 'adapter') : undefined;
}
