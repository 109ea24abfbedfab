import { Curriculum, DEFAULT_CURRICULUM } from '../../../rl/curriculum/curriculum.js';
import { TaskSampler } from '../../../rl/curriculum/task-sampler.js';
import { GrpoLoop, type LoopUpdate } from '../../../rl/loop/grpo-loop.js';
import { sdftGroupLearner } from '../../../rl/loop/sdft-learner.js';
import { startRunServer } from '../../../rl/serving/run-server.js';
import { servedModelName } from '../../../serve/create.js';
import { demoStates } from '../../../train/sdft/demo-states.js';
import type { CommandIo } from '../../command.js';
import { servePolicyInProcess } from '../grpo/publisher.js';
import { stranded } from '../grpo/queues.js';
import { stepReport } from '../step-report.js';
import type { SdftDemos } from './inputs.js';
import type { SdftRun } from './sdft-run.js';
import type { SdftSettings } from './settings.js';
import { SdftStepLog } from './step-log.js';

/**
 * On-policy sampling through the rollout tier, as grpo samples: this process serves the student's
 * adapter as `<run>@v<N>`, the rollout loop keeps groups of the current version queued for the
 * workers, admits finished ones by staleness, and per update distils every sampled turn (the
 * teacher shown the task's first demonstration) and publishes the next version. Null when a
 * signal stopped it.
 */
export async function trainOnRollouts(
  s: SdftSettings,
  io: CommandIo,
  signal: AbortSignal,
  job: SdftRun,
  demos: SdftDemos,
): Promise<{ losses: number[] } | null> {
  const r = s.rollouts!;
  const { model, parts, run } = job;
  const { config, tokenizer } = model;
  const log = (line: string) => io.err(line);
  // --rollouts requires --model, so the base model is that folder, which this process serves.
  const modelDir = model.baseModel;
  const baseName = servedModelName(modelDir);
  const served = await servePolicyInProcess({
    modelDir,
    baseName,
    run: r.run,
    maxStaleness: r.maxStaleness,
    runtime: job.runtime,
    log,
  });
  job.open({ release: () => served.ctx.close() });
  const server = await startRunServer({ metrics: async () => '', others: [] }, served.ctx, r.port, r.host, {
    apiKeys: [],
    publicMetrics: false,
  });
  job.open({ release: () => server.close() });
  const steps = new SdftStepLog(io, r.maxSteps, await stepReport(s.outDir));
  const learner = sdftGroupLearner({
    parts,
    modelConfig: config,
    pairs: {
      encode: (messages) => tokenizer.encodeChat(messages, { addGenerationPrompt: true }),
      demonstration: demoStates(demos.demos[0]!)[0]!.demonstration,
      template: s.teacherTemplate,
      maxLength: demos.maxLength,
    },
    update: { emaAlpha: s.emaAlpha, vocab: config.vocabSize, topK: s.topK },
  });
  const sampler = new TaskSampler(
    [{ name: r.task, weight: 1, resetOptions: r.resetOptions }],
    new Curriculum({ ...DEFAULT_CURRICULUM, enabled: false }),
    s.seed,
  );
  const loop: GrpoLoop = new GrpoLoop({
    run: r.run,
    label: 'sdft',
    connection: r.connection,
    learner,
    sampler,
    publisher: served.publisher,
    model: baseName,
    groupSize: r.groupSize,
    groupsPerUpdate: r.groupsPerUpdate,
    maxStaleness: r.maxStaleness,
    maxInFlight: r.maxInFlight,
    maxSteps: r.maxSteps,
    episode: r.episode,
    drainMs: r.drainMs,
    keepGroups: r.keepGroups,
    onUpdate: async (update) => {
      await steps.step(update.step, update.metrics, groupNote(update));
      await steps.checkpoint({ ...s, signal }, update.step, { ...parts, model, run });
    },
    log,
  });
  io.err(
    `sdft: run ${r.run} on ${r.task}${r.resetOptions['url'] ? ` (${String(r.resetOptions['url'])})` : ''}; ${r.maxSteps} updates of ${r.groupsPerUpdate} groups × ${r.groupSize}; max staleness ${r.maxStaleness}; queues ${r.connection.prefix} on ${r.connection.redis.host}:${r.connection.redis.port}; policy server ${server.url}`,
  );
  const counts = await Promise.race([loop.run(signal), stranded(r.connection, signal)]);
  if (counts) io.err(`sdft: groups ${JSON.stringify(counts)}`);
  if (signal.aborted) return steps.interrupted(s.outDir, r.maxSteps);
  return { losses: steps.losses };
}

/** The groups behind an update, and the run's totals so far. */
function groupNote(update: LoopUpdate): string {
  const m = update.metrics;
  return `  groups ${m['groups/trained']} (turns ${m['turns/distilled']}; run: ${m['groups/submitted']} submitted, ${m['groups/stale']} stale, ${m['groups/dropped']} dropped)`;
}
