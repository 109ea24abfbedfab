import { randomUUID } from 'node:crypto';
import {
  EpisodeJob,
  JOB_NAMES,
  laterVersionServed,
  PolicyVersionRetiredError,
  QUEUES,
  type Trajectory,
  type TrajectoryGroup,
} from '@gauntlet/proto/rollout';
import { queueConnection } from '@gauntlet/proto/rollout/queue';
import { Queue, UnrecoverableError, Worker, type Job } from 'bullmq';
import { makeLoraConfig } from '../../src/lora/config.js';
import type { ModelConfig } from '../../src/model/config.js';
import type { TinyModelOptions } from '../../src/model/tiny.js';
import type { WeightMap } from '../../src/model/weights.js';
import type { PolicyTensors } from '../../src/train/policy-tensors.js';
import type { TrainSpec } from '../../src/train/trainable.js';
import type { TokenLimits } from '../../src/rl/admission/trainable.js';
import { Curriculum } from '../../src/rl/curriculum/curriculum.js';
import { TaskSampler } from '../../src/rl/curriculum/task-sampler.js';
import { GrpoLoop, type GrpoLoopOptions, type LoopUpdate } from '../../src/rl/loop/grpo-loop.js';
import { grpoGroupLearner } from '../../src/rl/loop/grpo-learner.js';
import { InProcessPublisher, InProcessVersionPublisher } from '../../src/rl/serving/in-process.js';
import { versionsToKeep } from '../../src/rl/serving/versions.js';
import { AdapterRegistry } from '../../src/serve/adapters.js';
import { GrpoLearner, type GrpoOptions } from '../../src/train/grpo/index.js';
import { tinyModel } from '../support/tiny-models.js';
import { episode, turn } from '../support/trajectories.js';

// The loop against a real Redis (fresh prefix) and a real learner (onnxruntime, tiny model). The
// rollout side is a stand-in that plays every episode at once (one sampled turn, reward = index
// parity) and can hold, fail or rewrite chosen groups, so staleness, drops and hostile groups
// happen on cue; the real workers are exercised by test/e2e/grpo.test.ts.

export interface Script {
  /** Episodes of this group fail for good (the group is dropped). */
  fails?(groupId: string): boolean;
  /** Episodes of this group wait for the promise before they are played. */
  holds?(groupId: string): Promise<void> | undefined;
  /**
   * Rewrites a finished group before it goes on the trainer's queue, as anyone who can write to
   * Redis could (the real worker checks the schema; this skips it).
   */
  corrupt?(group: TrajectoryGroup): unknown;
  /** Told when each episode of this group was played (or failed: `error`). */
  played?(groupId: string, error?: Error): void;
}

export interface HarnessOptions {
  maxStaleness: number;
  maxInFlight: number;
  maxSteps: number;
  model?: TinyModelOptions;
  limits?: TokenLimits;
  maxFailedUpdates?: number;
  keep?: GrpoLoopOptions['keep'];
  keepGroups?: number;
  /** The model (default: a one-layer tiny model in memory). */
  loaded?: { config: ModelConfig; weights: WeightMap };
  /** What the learner trains (default: a LoRA adapter). */
  train?: TrainSpec;
  /**
   * Episodes ask the policy server for their version when they are played, as the real worker
   * does; one the server no longer holds fails for good (its 404): retired when a later version
   * of the run is served (the group is stale), else the group is dropped.
   */
  served?: boolean;
  /** The policy server versions are published to (default: a registry of its own, no engine). */
  registry?: AdapterRegistry;
  /** Also called with each version published (a model folder per version). */
  alsoWrite?: (version: number, policy: PolicyTensors) => Promise<void>;
  /** Checkpoints the loop saves (on interrupt, and every N updates with checkpointEvery). */
  onCheckpoint?: (step: number) => Promise<void>;
  checkpointEvery?: number;
  /** GRPO knobs on top of the default (no sampler correction). */
  grpo?: GrpoOptions;
  /** A checkpoint's running totals, as a resumed run is handed them. */
  totalsBefore?: GrpoLoopOptions['totalsBefore'];
}

export type Cleanup = () => Promise<unknown>;

export async function loopHarness(options: HarnessOptions, script: Script, cleanups: Cleanup[]) {
  const { config, weights } = options.loaded ?? tinyModel({ numLayers: 1, ...options.model });
  const registry = options.registry ?? new AdapterRegistry('tiny', config);
  const servedVersion = (adapter: string) => {
    try {
      registry.resolve(adapter);
    } catch (error) {
      // As the real worker tells them apart: a version the learner moved past is retired.
      const served = registry.list().map((l) => l.name);
      const message = laterVersionServed(adapter, served)
        ? new PolicyVersionRetiredError(adapter, `serves ${served.join(', ')}`).message
        : `policy server: 404 ${(error as Error).message}`;
      throw new UnrecoverableError(message);
    }
  };
  const connection = queueConnection('redis://127.0.0.1:6379', `test-${randomUUID()}`);
  const base = { connection: connection.redis, prefix: connection.prefix };
  const trainerQueue = new Queue(QUEUES.trajectoryGroups, base);
  const episodes = new Worker(
    QUEUES.episodes,
    async (job: Job): Promise<Trajectory> => {
      const e = EpisodeJob.parse(job.data);
      await script.holds?.(e.group_id);
      try {
        if (script.fails?.(e.group_id)) throw new UnrecoverableError('the env rejected this task');
        if (options.served) servedVersion(e.policy.adapter!);
      } catch (error) {
        script.played?.(e.group_id, error as Error);
        throw error;
      }
      script.played?.(e.group_id);
      const played = episode(
        e.group_id,
        e.index,
        [turn(0, { completion_ids: [65, 66], logprobs: [-1, -1], policy: { ...e.policy, model: e.policy.adapter! } })],
        e.index % 2,
      );
      return { ...played, task: e.task, seed: e.seed };
    },
    { ...base, concurrency: 8 },
  );
  const groups = new Worker(
    QUEUES.groups,
    async (job: Job) => {
      const trajectories = Object.values(await job.getChildrenValues<Trajectory>()).sort((a, b) =>
        a.episode_id.localeCompare(b.episode_id),
      );
      const { group_id, task, seed, policy } = job.data as {
        group_id: string;
        task: string;
        seed: number;
        policy: never;
      };
      const finished = { group_id, task, seed, policy, trajectories, completed_at: new Date().toISOString() };
      const payload = script.corrupt ? script.corrupt(finished as unknown as TrajectoryGroup) : finished;
      await trainerQueue.add(JOB_NAMES.trajectoryGroup, payload, { jobId: group_id });
    },
    base,
  );
  const learner = await GrpoLearner.create({
    config,
    weights,
    lora: makeLoraConfig({ rank: 2 }),
    ...(options.train ? { train: options.train } : {}),
    schedule: { lr: 1e-2 },
    runtime: { intraOpNumThreads: 1 },
    grpo: { samplerCorrection: null, ...options.grpo },
  });
  const updates: LoopUpdate[] = [];
  const onUpdate: ((u: LoopUpdate) => void | Promise<void>)[] = [];
  const logs: string[] = [];
  const sampler = new TaskSampler([{ name: 'miniwob.click-test', weight: 1 }], new Curriculum(), 1);
  const loop = new GrpoLoop({
    run: 'unit',
    connection,
    learner: grpoGroupLearner(learner),
    sampler,
    publisher: new InProcessVersionPublisher(
      new InProcessPublisher(registry, 'unit', versionsToKeep(options.maxStaleness)),
      options.alsoWrite,
    ),
    model: 'tiny',
    groupSize: 2,
    groupsPerUpdate: 1,
    maxStaleness: options.maxStaleness,
    maxInFlight: options.maxInFlight,
    maxSteps: options.maxSteps,
    episode: {
      max_turns: 1,
      deadline_ms: 60_000,
      sampling: { temperature: 1, top_p: 1, top_k: -1, max_tokens: 4, seed: null },
      context_tokens: null,
      observation_chars: null,
      observation_format: 'axtree',
      constrained: false,
      action_names: null,
      bid_choices: false,
      text_choices: false,
    },
    drainMs: 20_000,
    ...(options.limits ? { limits: options.limits } : {}),
    ...(options.maxFailedUpdates ? { maxFailedUpdates: options.maxFailedUpdates } : {}),
    keep: options.keep,
    ...(options.keepGroups === undefined ? {} : { keepGroups: options.keepGroups }),
    totalsBefore: options.totalsBefore,
    onUpdate: async (u) => {
      updates.push(u);
      for (const f of onUpdate) await f(u);
    },
    ...(options.onCheckpoint ? { onCheckpoint: options.onCheckpoint } : {}),
    ...(options.checkpointEvery ? { checkpointEvery: options.checkpointEvery } : {}),
    log: (line) => logs.push(line),
  });
  // Run in reverse: the stand-in workers stop before their queues are removed.
  cleanups.push(
    () => learner.release(),
    async () => {
      for (const name of Object.values(QUEUES)) {
        const q = new Queue(name, base);
        await q.obliterate({ force: true });
        await q.close();
      }
      await trainerQueue.close();
    },
    () => Promise.allSettled([episodes.close(), groups.close()]),
  );
  return { loop, updates, onUpdate, registry, logs, config, trainerQueue, learner, sampler, base };
}
