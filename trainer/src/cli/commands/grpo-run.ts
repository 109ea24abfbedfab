import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadAdapter } from '../../lora/peft.js';
import { writeTinyModel } from '../../model/tiny.js';
import { ModelTokenizer } from '../../model/tokenizer.js';
import { loadModel } from '../../model/weights.js';
import { Curriculum } from '../../rl/curriculum/curriculum.js';
import { TaskSampler } from '../../rl/curriculum/task-sampler.js';
import { GrpoLoop, type VersionPublisher } from '../../rl/loop/grpo-loop.js';
import { defaultProbe, ExternalPublisher } from '../../rl/publish/index.js';
import { ExternalVersionPublisher, InProcessVersionPublisher } from '../../rl/serving/external.js';
import { InProcessPublisher } from '../../rl/serving/in-process.js';
import { startRunServer } from '../../rl/serving/run-server.js';
import { createServeContext } from '../../serve/create.js';
import type { ServeContext } from '../../serve/context.js';
import { GrpoLearner } from '../../train/grpo/index.js';
import { EXIT_INTERRUPTED, EXIT_OK, UsageError, type CommandIo } from '../command.js';
import { GrpoProgress } from './grpo-progress.js';
import type { GrpoSettings } from './grpo-settings.js';
import { writeAdapterFolder } from './sft-output.js';

/**
 * The grpo command's work: model, learner and (unless --vllm-url) the in-process policy server,
 * then the loop until --max-steps or a signal; the final adapter goes to <output-dir>/final.
 */
export async function runGrpoJob(s: GrpoSettings, io: CommandIo, signal: AbortSignal): Promise<number> {
  await checkOutputDir(s);
  const tiny = s.modelDir ? null : await mkdtemp(join(tmpdir(), 'gauntlet-grpo-tiny-'));
  const modelDir = s.modelDir ?? join(tiny!, 'tiny');
  let ctx: ServeContext | null = null;
  let learner: GrpoLearner | null = null;
  try {
    if (tiny) await writeTinyModel(modelDir, { seed: 0 });
    const { config, weights } = await loadModel(modelDir);
    const runtime = { executionProvider: s.device, ...(s.threads ? { intraOpNumThreads: s.threads } : {}) };
    const adapter = s.initAdapter ? await loadAdapter(s.initAdapter, { model: config }) : undefined;
    learner = await GrpoLearner.create({
      config,
      weights,
      lora: adapter?.config ?? s.lora,
      ...(adapter ? { adapter } : {}),
      seed: s.seed,
      temperature: s.episode.sampling.temperature,
      optimizer: { weightDecay: s.weightDecay },
      schedule: { lr: s.lr, warmupSteps: s.warmup, decay: s.schedule, totalSteps: s.maxSteps },
      maxGradNorm: s.maxGradNorm,
      ...(s.microBatch ? { microBatchSize: s.microBatch } : {}),
      runtime,
      grpo: s.grpo,
    });
    const external = s.vllmUrls.length > 0;
    const baseName = tiny ? 'tiny' : modelDir.split('/').filter(Boolean).at(-1)!;
    if (!external)
      ctx = await createServeContext({
        modelDir,
        servedModelName: baseName,
        apiKeys: s.apiKey ? [s.apiKey] : [],
        // GRPO's sampler correction compares the trainer's log-probs with the distribution sampled from.
        logprobsMode: 'processed_logprobs',
        log: (line) => io.err(line),
        runtime,
      });
    const log = (line: string) => io.err(line);
    const publisher: VersionPublisher = external
      ? new ExternalVersionPublisher(
          new ExternalPublisher({
            targets: s.vllmUrls.map((url) => ({ url, ...(s.apiKey ? { apiKey: s.apiKey } : {}) })),
            tolerance: s.probeTolerance,
            keepVersions: s.maxStaleness + 1,
            log,
          }),
          {
            run: s.run,
            learner,
            probe: defaultProbe(await ModelTokenizer.load(modelDir)),
            publishDir: s.publishDir,
            baseModel: s.modelDir ?? baseName,
            log,
          },
        )
      : new InProcessVersionPublisher(new InProcessPublisher(ctx!.adapters, s.run, s.maxStaleness + 1));
    const progress = new GrpoProgress(join(s.outputDir, 'metrics.jsonl'), s.maxSteps, log);
    const server = await startRunServer({ metrics: () => progress.prometheus(), others: [] }, ctx, s.port, s.host);
    const loop = new GrpoLoop({
      run: s.run,
      connection: s.connection,
      learner,
      sampler: new TaskSampler(s.tasks, new Curriculum(s.curriculum), s.seed),
      publisher,
      model: baseName,
      groupSize: s.groupSize,
      groupsPerUpdate: s.groupsPerUpdate,
      maxStaleness: s.maxStaleness,
      maxInFlight: s.maxInFlight,
      maxSteps: s.maxSteps,
      episode: s.episode,
      drainMs: s.drainMs,
      onUpdate: (step, metrics) => progress.update(step, metrics),
      log,
    });
    io.out(
      `grpo: run ${s.run} on ${s.tasks.map((t) => `${t.name}=${t.weight}`).join(', ')}; ${s.maxSteps} updates of ${s.groupsPerUpdate} groups × ${s.groupSize}; max staleness ${s.maxStaleness}; queues ${s.connection.prefix} on ${s.connection.redis.host}:${s.connection.redis.port}; ${external ? `publishing to ${s.vllmUrls.join(', ')}` : `policy server ${server.url}`}; metrics ${server.url}/metrics`,
    );
    try {
      const counts = await loop.run(signal);
      io.out(`grpo: groups ${JSON.stringify(counts)}`);
    } finally {
      await server.close();
    }
    await writeAdapterFolder(join(s.outputDir, 'final'), learner.trainer.adapter, s.modelDir ?? baseName);
    io.out(
      `grpo: ${signal.aborted ? 'interrupted at' : 'finished'} version ${loop.version}; adapter in ${join(s.outputDir, 'final')}`,
    );
    return signal.aborted ? EXIT_INTERRUPTED : EXIT_OK;
  } finally {
    await Promise.allSettled([learner?.release(), ctx?.close()]);
    if (tiny) await rm(tiny, { recursive: true, force: true });
  }
}

/** A run never writes over another: a folder with files needs --resume. */
async function checkOutputDir(s: GrpoSettings): Promise<void> {
  const entries = await readdir(s.outputDir).catch(() => []);
  if (entries.length > 0 && !s.resume)
    throw new UsageError(
      `grpo: ${s.outputDir} already holds a run; pass --resume to continue it, or pick another --output-dir`,
      'grpo',
    );
}
