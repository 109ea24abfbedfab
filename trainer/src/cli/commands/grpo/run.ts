import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { KEPT_TRAJECTORIES_FILE } from '@gauntlet/proto/rollout';
import { checkTaskNames } from '@gauntlet/proto/cli';
import type { RedisWatch } from '@gauntlet/proto/rollout/queue';
import { join } from 'node:path';
import type { LoraAdapter } from '../../../lora/adapter.js';
import { loadAdapter } from '../../../lora/peft.js';
import { writeTinyModel } from '../../../model/tiny.js';
import { ModelTokenizer } from '../../../model/tokenizer.js';
import { loadModel } from '../../../model/weights.js';
import { CheckpointStore, type JsonValue, type LoadedCheckpoint } from '../../../rl/checkpoint/index.js';
import { Curriculum } from '../../../rl/curriculum/curriculum.js';
import { TaskSampler } from '../../../rl/curriculum/task-sampler.js';
import { defaultTokenLimits } from '../../../rl/admission/trainable.js';
import { GrpoLoop } from '../../../rl/loop/grpo-loop.js';
import { grpoGroupLearner } from '../../../rl/loop/grpo-learner.js';
import { checkpointOf, restoreRun } from '../../../rl/loop/run-checkpoint.js';
import { RunReport } from '../../../rl/report/index.js';
import { startRunServer, type RunRoute } from '../../../rl/serving/run-server.js';
import type { ServeContext } from '../../../serve/context.js';
import { servedModelName } from '../../../serve/create.js';
import { GrpoLearner } from '../../../train/grpo/index.js';
import { EXIT_INTERRUPTED, EXIT_OK, UsageError, type CommandIo } from '../../command.js';
import { createPublisher } from './publisher.js';
import { stranded, withQueues } from './queues.js';
import type { GrpoSettings } from './settings.js';
import { writeTrainedOutput } from '../sft/checkpoint.js';
import { readTokenizerFiles } from '../../../model/model-folder.js';
import type { WeightMap } from '../../../model/weights.js';
import { formatTrainSpec, trainedWeightNames, trainsBaseWeights, type TrainSpec } from '../../../train/trainable.js';

/**
 * The grpo command's work: model, learner (from --init-adapter, or the latest checkpoint with
 * --resume), the policy server or external publisher, then the loop until --max-steps or a
 * signal (which saves a checkpoint); the final adapter goes to <output-dir>/final.
 */
export async function runGrpoJob(s: GrpoSettings, io: CommandIo, signal: AbortSignal): Promise<number> {
  const log = (line: string) => io.err(line);
  await checkTasks(s, log);
  return withQueues(s.connection, { timeoutMs: s.redisTimeoutMs, signal, label: 'grpo', log }, () =>
    runWithQueues(s, io, signal),
  );
}

/** The run itself, once Redis answered: model, learner, publisher, server and loop. */
async function runWithQueues(s: GrpoSettings, io: CommandIo, signal: AbortSignal): Promise<number> {
  const log = (line: string) => io.err(line);
  const { watch } = s.connection;
  const store = new CheckpointStore(join(s.outputDir, 'checkpoints'), { keep: s.keepCheckpoints, log });
  const checkpoint = await startingPoint(s, store, log);
  const tiny = s.modelDir ? null : await mkdtemp(join(tmpdir(), 'gauntlet-grpo-tiny-'));
  const modelDir = s.modelDir ?? join(tiny!, 'tiny');
  // The built-in model's folder is <tmp>/tiny: its name is 'tiny' too.
  const baseName = servedModelName(modelDir);
  let ctx: ServeContext | null = null;
  let learner: GrpoLearner | null = null;
  try {
    if (tiny) await writeTinyModel(modelDir, { seed: 0 });
    const { config, weights } = await loadModel(modelDir);
    const trained = checkpoint
      ? checkpointWeights(checkpoint, s.train, trainedWeightNames(config, s.train))
      : undefined;
    // Every group would be refused by the policy servers, turn after turn: refused here, before any is submitted.
    if (s.episode.sampling.max_tokens >= config.maxPositionEmbeddings)
      throw new UsageError(
        `grpo: --max-tokens (${s.episode.sampling.max_tokens}) must be below the model's context of ${config.maxPositionEmbeddings} tokens: the prompt needs room too`,
        'max-tokens',
      );
    const runtime = { executionProvider: s.device, ...(s.threads ? { intraOpNumThreads: s.threads } : {}) };
    const adapter: LoraAdapter | undefined =
      checkpoint?.adapter ?? (s.initAdapter ? await loadAdapter(s.initAdapter, { model: config }) : undefined);
    learner = await GrpoLearner.create({
      config,
      weights,
      lora: adapter?.config ?? s.lora,
      train: s.train,
      ...(adapter ? { adapter } : {}),
      ...(trained ? { trained } : {}),
      seed: s.seed,
      temperature: s.episode.sampling.temperature,
      optimizer: { weightDecay: s.weightDecay },
      schedule: { lr: s.lr, warmupSteps: s.warmup, decay: s.schedule, totalSteps: s.maxSteps },
      maxGradNorm: s.maxGradNorm,
      ...(s.microBatch ? { microBatchSize: s.microBatch } : {}),
      runtime,
      grpo: s.grpo,
    });
    const source = { config, tokenizerFiles: await readTokenizerFiles(modelDir) };
    const sampler = new TaskSampler(s.tasks, new Curriculum(s.curriculum), s.seed);
    const restored = checkpoint ? restoreRun(checkpoint, { learner, sampler }) : undefined;
    const published = await createPublisher(s, {
      learner,
      modelDir,
      baseName,
      source,
      runtime,
      resumedAt: checkpoint?.version,
      earlier: checkpoint?.earlier,
      log,
    });
    ctx = published.ctx;
    const kept = s.keepTrajectories ? join(s.outputDir, KEPT_TRAJECTORIES_FILE) : null;
    const report = new RunReport({
      jsonlPath: join(s.outputDir, 'metrics.jsonl'),
      log,
      viewer: { path: kept, groups: s.keepTrajectories, url: s.viewerUrl },
    });
    const tokenizer = kept ? (ctx?.tokenizer ?? (await ModelTokenizer.load(modelDir))) : null;
    // A resumed run keeps the rows through its checkpoint; a fresh start under --resume (no
    // checkpoint yet) drops the rows of the attempt before it.
    if (s.resume) await report.resume(checkpoint?.version ?? 0);
    const server = await startRunServer(
      {
        metrics: () => report.registry.metrics(),
        others: [unhealthyWhileDown(watch), (req, res) => report.handler(req, res)],
      },
      ctx,
      s.port,
      s.host,
      { apiKeys: s.apiKey ? [s.apiKey] : [], publicMetrics: s.publicMetrics },
    );
    const parts = { learner, sampler, config: settingsJson(s), baseModel: s.modelDir ?? baseName };
    const loop: GrpoLoop = new GrpoLoop({
      run: s.run,
      connection: s.connection,
      learner: grpoGroupLearner(learner),
      sampler,
      publisher: published.publisher,
      model: baseName,
      groupSize: s.groupSize,
      groupsPerUpdate: s.groupsPerUpdate,
      maxStaleness: s.maxStaleness,
      maxInFlight: s.maxInFlight,
      maxSteps: s.maxSteps,
      episode: s.episode,
      drainMs: s.drainMs,
      keepGroups: s.keepGroups,
      limits: {
        ...defaultTokenLimits(config),
        ...(s.maxSequenceTokens ? { maxSequenceTokens: s.maxSequenceTokens } : {}),
      },
      maxFailedUpdates: s.maxFailedUpdates,
      keep:
        kept && tokenizer
          ? { path: kept, groups: s.keepTrajectories, tokenText: (id) => tokenizer.decode([id]) }
          : undefined,
      startVersion: checkpoint?.version ?? 0,
      resume: restored?.pending,
      totalsBefore: restored?.totals,
      earlierVersions: checkpoint?.earlier,
      checkpointEvery: s.checkpointEvery,
      onUpdate: async (update) => void (await report.record({ ...update })),
      onCheckpoint: async (step, reason) => {
        const path = await store.save(checkpointOf(loop, parts));
        log(`grpo: checkpoint of update ${step} saved to ${path}${reason === 'interrupt' ? ' (interrupted)' : ''}`);
      },
      log,
    });
    io.out(
      `grpo: run ${s.run} on ${s.tasks.map((t) => `${t.name}=${t.weight}`).join(', ')}; ${checkpoint ? `resumed at update ${checkpoint.version}; ` : ''}${s.maxSteps} updates of ${s.groupsPerUpdate} groups × ${s.groupSize}; max staleness ${s.maxStaleness}; queues ${s.connection.prefix} on ${s.connection.redis.host}:${s.connection.redis.port}; ${s.vllmUrls.length ? `publishing to ${s.vllmUrls.join(', ')}` : `policy server ${server.url}`}; metrics ${server.url}/metrics, curves ${server.url}/curves${kept ? `; last ${s.keepTrajectories} groups kept for gauntlet-agent view ${kept}` : ''}`,
    );
    try {
      const counts = await Promise.race([loop.run(signal), stranded(s.connection, signal)]);
      if (counts === null) {
        log(
          `grpo: interrupted while Redis at ${watch.url} is unreachable; stopping now (resume from the last checkpoint)`,
        );
        return EXIT_INTERRUPTED;
      }
      io.out(`grpo: groups ${JSON.stringify(counts)}`);
      if (signal.aborted) {
        io.out(`grpo: interrupted at version ${loop.version}; resume with --resume`);
        return EXIT_INTERRUPTED;
      }
      await store.save(checkpointOf(loop, parts));
      const final = join(s.outputDir, 'final');
      await writeTrainedOutput(final, learner.trainer, { ...source, baseModel: s.modelDir ?? baseName });
      io.out(
        `grpo: finished version ${loop.version}; ${trainsBaseWeights(s.train) ? `model folder (--train ${formatTrainSpec(s.train)})` : 'adapter'} in ${final}`,
      );
      if (s.stayUp) {
        io.out(`grpo: still serving the finished run's curves at ${server.url}/curves until stopped (--stay-up)`);
        await new Promise<void>((resolve) =>
          signal.aborted ? resolve() : signal.addEventListener('abort', () => resolve(), { once: true }),
        );
      }
      return EXIT_OK;
    } finally {
      await server.close();
    }
  } finally {
    await Promise.allSettled([learner?.release(), ctx?.close()]);
    if (tiny) await rm(tiny, { recursive: true, force: true });
  }
}

/**
 * A run never writes over another: a folder with files needs --resume. --resume continues from
 * the folder's latest checkpoint, which must be of this run; with none yet (a first start, or a
 * crash before the first checkpoint) the run starts afresh, so a container restarted with the same
 * command line never crash-loops.
 */
async function startingPoint(
  s: GrpoSettings,
  store: CheckpointStore,
  log: (line: string) => void,
): Promise<LoadedCheckpoint | null> {
  const entries = await readdir(s.outputDir).catch(() => []);
  if (!s.resume) {
    if (entries.length > 0)
      throw new UsageError(
        `grpo: ${s.outputDir} already holds a run; pass --resume to continue it, or pick another --output-dir`,
        'output-dir',
      );
    return null;
  }
  const checkpoint = await store.latest();
  if (!checkpoint) {
    log(`grpo: --resume: no checkpoint in ${store.dir} yet; starting the run`);
    return null;
  }
  const run = (checkpoint.config as { run?: unknown } | null)?.run;
  if (run !== s.run)
    throw new UsageError(
      `grpo: --resume: ${checkpoint.path} is of run ${JSON.stringify(run)}, not ${JSON.stringify(s.run)} (pass its --run-name)`,
      'resume',
    );
  if (s.initAdapter)
    throw new UsageError('grpo: --resume continues from the checkpoint; drop --init-adapter', 'init-adapter');
  return checkpoint;
}

/**
 * A --task no env server serves is a usage error before anything starts (instead of groups
 * dropped one after another); env servers not up yet leave the names unchecked, as before.
 */
async function checkTasks(s: GrpoSettings, log: (line: string) => void): Promise<void> {
  if (s.envUrls.length === 0) return;
  try {
    const check = await checkTaskNames(
      s.tasks.map((t) => t.name),
      s.envUrls,
      { token: s.envToken },
    );
    if (!check.checked) log(`grpo: task names not checked (${check.reason}); starting anyway`);
  } catch (error) {
    if (error instanceof UsageError) throw new UsageError(`grpo: ${error.message}`, error.flag ?? 'task');
    throw error;
  }
}

/** The settings as recorded in a checkpoint (the API key left out). */
function settingsJson(s: GrpoSettings): JsonValue {
  const { apiKey: _key, envToken: _token, connection, train, ...rest } = s;
  return JSON.parse(JSON.stringify({ ...rest, train: formatTrainSpec(train), prefix: connection.prefix })) as JsonValue;
}

/**
 * The trained base weights a checkpoint resumes from: exactly the ones this run's --train names
 * (a checkpoint of another --train could not continue exactly, so it is refused).
 */
function checkpointWeights(
  checkpoint: LoadedCheckpoint,
  spec: TrainSpec,
  names: readonly string[],
): WeightMap | undefined {
  const saved = [...(checkpoint.weights?.keys() ?? [])].sort();
  if (saved.join() !== [...names].sort().join() || !!checkpoint.adapter !== spec.has('lora'))
    throw new UsageError(
      `grpo: --resume: ${checkpoint.path} holds ${checkpoint.adapter ? 'an adapter and ' : ''}${saved.length} trained base weights; this run's --train ${formatTrainSpec(spec)} trains ${spec.has('lora') ? 'an adapter and ' : ''}${names.length}; pass the --train it was saved with`,
      'train',
    );
  return checkpoint.weights;
}

/** `/health` answers 503 while the queues are unreachable (the trainer cannot get or hand out groups). */
function unhealthyWhileDown(watch: RedisWatch): RunRoute {
  return (req, res) => {
    if (req.method !== 'GET' || new URL(req.url ?? '/', 'http://local').pathname !== '/health' || watch.up)
      return false;
    res
      .writeHead(503, { 'content-type': 'application/json' })
      .end(JSON.stringify({ status: 'unavailable', reason: `Redis at ${watch.url} is unreachable` }));
    return true;
  };
}
