import { randomBytes } from 'node:crypto';
import {
  isRetiredVersionReason,
  type EpisodeSettings,
  type GroupJobInput,
  type TrajectoryGroup,
} from '@gauntlet/proto/rollout';
import { GroupSubmitter, GroupTracker, type QueueConnection } from '@gauntlet/proto/rollout/queue';
import { copyPolicy, type PolicyTensors } from '../../train/policy-tensors.js';
import { admitGroup } from '../admission/staleness.js';
import type { EarlierVersion } from '../checkpoint/state.js';
import { defaultTokenLimits, type TokenLimits } from '../admission/trainable.js';
import type { TaskSampler } from '../curriculum/task-sampler.js';
import { TrajectoryKeeper, type KeepOptions } from '../report/trajectory-keeper.js';
import { versionName } from '../serving/versions.js';
import { DropLog } from './drop-log.js';
import type { GroupLearner } from './group-learner.js';
import { EventQueue } from './event-queue.js';
import { GroupRetention } from './retention.js';
import { GroupConsumer } from './group-consumer.js';
import {
  batchSummary,
  runTotals,
  zeroCounts,
  type BatchSummary,
  type GroupCounts,
  type RunTotals,
} from './loop-counters.js';

/** Where new versions go: the in-process server, or external vLLM servers (verified). */
export interface VersionPublisher {
  publish(version: number, policy: PolicyTensors): Promise<void>;
  /** Names of the servers jobs should sample from (those that verified the version); undefined: the workers' own. */
  rotation(): string[] | undefined;
}

export interface GrpoLoopOptions {
  run: string;
  connection: QueueConnection;
  /** What trains on the groups: grpoGroupLearner, or SDFT's. */
  learner: GroupLearner;
  /** Opens its log lines (default 'grpo'). */
  label?: string;
  sampler: TaskSampler;
  publisher: VersionPublisher;
  /** The base model's served name (PolicyRef.model). */
  model: string;
  groupSize: number;
  groupsPerUpdate: number;
  maxStaleness: number;
  /** Groups submitted and not yet trained on, at most. */
  maxInFlight: number;
  maxSteps: number;
  /** Episode settings every group carries (policy_servers are filled in per group). */
  episode: Omit<EpisodeSettings, 'reset_options' | 'policy_servers'>;
  /** Version (= updates applied) the run starts from: 0, or a checkpoint's. */
  startVersion?: number;
  /** A checkpoint's groups in flight and admitted-but-untrained groups, taken over on resume. */
  resume?: PendingGroups | undefined;
  /** A checkpoint's running totals (the processes before this one), which the curves go on from. */
  totalsBefore?: Partial<RunTotals> | undefined;
  /** A checkpoint's earlier versions (CheckpointState.earlier), kept for the next checkpoint. */
  earlierVersions?: EarlierVersion[] | undefined;
  /** After the last update, how long groups still in flight may finish before they are removed. */
  drainMs?: number;
  /** What a group's tokens are checked against before admission; default: the learner's model (defaultTokenLimits). */
  limits?: TokenLimits;
  /**
   * Updates in a row the engine may fail (each drops its batch) before the run stops: one bad
   * batch is the data's fault, several in a row the engine's (default 3).
   */
  maxFailedUpdates?: number;
  /** `--keep-trajectories`: the last N consumed groups on disk for the viewer (absent: none kept). */
  keep?: Omit<KeepOptions, 'log'> | undefined;
  onUpdate(update: LoopUpdate): void | Promise<void>;
  /** Called after update `step` when a checkpoint is due, and on an interrupt. */
  onCheckpoint?(step: number, reason: 'every' | 'interrupt'): Promise<void>;
  checkpointEvery?: number;
  /** Finished groups left in Redis for a look; older ones are removed (default DEFAULT_KEEP_GROUPS). */
  keepGroups?: number;
  /** At most one line per drop reason this often (ms; default DROP_LOG_EVERY_MS). */
  dropLogEveryMs?: number;
  log(line: string): void;
}

/** One update as the loop reports it (the run report's shape). */
export interface LoopUpdate extends BatchSummary {
  step: number;
  version: number;
}

/** What a checkpoint keeps of the groups between submission and training. */
export interface PendingGroups {
  /** Group ids still out, with the start_step each was played from (null: none). */
  outstanding: [string, number | null][];
  /** Admitted groups waiting for the next update, with their staleness at admission. */
  batch: { group: TrajectoryGroup; staleness: number }[];
}

type LoopEvent =
  | { kind: 'group'; group: TrajectoryGroup }
  | { kind: 'dropped'; id: string; reason: string }
  | { kind: 'bad'; id: string | null; message: string };

/**
 * The GRPO loop: keeps up to maxInFlight groups of the current version queued for the rollout
 * workers, admits finished groups by staleness, updates once groupsPerUpdate are in, and
 * publishes the new version `<run>@v<N>`. Workers go on playing queued groups during an update
 * (asynchronous); maxStaleness 0 with maxInFlight = groupsPerUpdate is strictly on-policy.
 */
export class GrpoLoop {
  readonly counts: GroupCounts = zeroCounts();
  version: number;
  /** Submitted groups not yet consumed or dropped, with the start_step each was played from. */
  private readonly outstanding = new Map<string, number | undefined>();
  private readonly batch: { group: TrajectoryGroup; staleness: number }[] = [];
  private readonly events = new EventQueue<LoopEvent>();
  /** Group ids of this process: runs resumed from a checkpoint never reuse an id. */
  private readonly idPrefix: string;
  private serial = 0;
  private failedInARow = 0;
  private readonly drops: DropLog;
  /** Groups of ours the loop is done with, not yet handed to the retention. */
  private readonly done: string[] = [];
  /** Copies of the versions published in the admissible window: a checkpoint keeps those before the current one. */
  private readonly published = new Map<number, PolicyTensors>();
  private readonly keeper: TrajectoryKeeper | null;
  private readonly label: string;

  constructor(private readonly o: GrpoLoopOptions) {
    this.label = o.label ?? 'grpo';
    this.version = o.startVersion ?? 0;
    this.drops = new DropLog((line) => this.log(line), o.dropLogEveryMs);
    this.idPrefix = `${o.run}-${Date.now().toString(36)}${randomBytes(2).toString('hex')}`;
    for (const [id, startStep] of o.resume?.outstanding ?? []) this.outstanding.set(id, startStep ?? undefined);
    this.batch.push(...(o.resume?.batch ?? []));
    for (const { version, ...policy } of o.earlierVersions ?? []) this.published.set(version, policy);
    // Adopted admitted groups count as consumed and admitted here: the earlier process took them off the queue.
    this.counts.adopted = this.outstanding.size + this.batch.length;
    this.counts.consumed = this.counts.admitted = this.batch.length;
    this.keeper = o.keep ? new TrajectoryKeeper({ ...o.keep, log: (line) => this.log(line) }) : null;
  }

  /** The run's running totals: the checkpoint's it resumed from plus this process's. */
  totals(): RunTotals {
    return runTotals(this.counts, this.o.totalsBefore);
  }

  /** The groups a checkpoint must keep for a resumed run to go on exactly. */
  pending(): PendingGroups {
    return {
      outstanding: [...this.outstanding].map(([id, step]) => [id, step ?? null]),
      batch: this.batch.map((b) => ({ ...b })),
    };
  }

  /**
   * The versions before the current one that admissible groups may still be played by, so a
   * resumed in-process server can serve them again (a checkpoint's `earlier`).
   */
  earlier(): EarlierVersion[] {
    return [...this.published]
      .filter(([version]) => version < this.version)
      .sort(([a], [b]) => a - b)
      .map(([version, policy]) => ({ version, ...policy }));
  }

  private async publish(): Promise<void> {
    const policy = this.o.learner.policy;
    await this.o.publisher.publish(this.version, policy);
    this.published.set(this.version, copyPolicy(policy));
    for (const version of this.published.keys())
      if (version < this.version - this.o.maxStaleness) this.published.delete(version);
  }

  /** Runs until maxSteps updates are done or `signal` aborts; returns how the groups ended. */
  async run(signal: AbortSignal): Promise<GroupCounts> {
    const { o } = this;
    const submitter = new GroupSubmitter(o.connection);
    const tracker = new GroupTracker(o.connection);
    tracker.onFinished((id, fate) => fate === 'dropped' && this.dropped(tracker, id));
    const retention = new GroupRetention(o.connection, o.keepGroups);
    const limits = o.limits ?? defaultTokenLimits(o.learner.modelConfig);
    const consumer = new GroupConsumer(
      o.connection,
      {
        group: (group) => this.events.push({ kind: 'group', group }),
        bad: (_job, message, id) => this.events.push({ kind: 'bad', id, message }),
        error: (error) => this.log(`queue error: ${error.message}`),
      },
      (group) => o.learner.untrainable(group, limits),
    );
    try {
      await this.keeper?.resume();
      await Promise.all([tracker.ready(), consumer.waitUntilReady()]);
      await this.publish();
      let waitStarted = performance.now();
      while (this.version < o.maxSteps && !signal.aborted) {
        await this.fill(submitter);
        const event = await this.events.next(10_000, signal);
        if (!event) {
          if (!signal.aborted) await this.reconcile(tracker, consumer);
          continue;
        }
        this.take(event);
        if (this.batch.length >= o.groupsPerUpdate) {
          const waited = (performance.now() - waitStarted) / 1000;
          await this.update(waited);
          waitStarted = performance.now();
        }
        await retention.finished(...this.done.splice(0));
      }
      if (signal.aborted) {
        await o.onCheckpoint?.(this.version, 'interrupt');
        this.log(
          `interrupted; ${this.outstanding.size} group(s) left in flight and ${this.batch.length} admitted, kept for a resumed run`,
        );
      } else await this.drain(tracker, submitter, consumer);
      await retention.finished(...this.done.splice(0));
      return this.counts;
    } finally {
      this.drops.close();
      await Promise.allSettled([
        consumer.close(),
        tracker.close(),
        submitter.close(),
        retention.close(),
        this.keeper?.flushed(),
      ]);
    }
  }

  /** A dropped group becomes an event once its reason is read (the episode that ran out of tries). */
  private async dropped(tracker: GroupTracker, id: string): Promise<void> {
    const reason = await tracker.dropReason(id).catch((error: Error) => `reason unreadable: ${error.message}`);
    this.events.push({ kind: 'dropped', id, reason });
  }

  private async fill(submitter: GroupSubmitter): Promise<void> {
    const { o } = this;
    const rotation = o.publisher.rotation();
    while (this.outstanding.size + this.batch.length < o.maxInFlight) {
      const draw = o.sampler.next();
      const group: GroupJobInput = {
        group_id: `${this.idPrefix}-${this.serial++}`,
        task: draw.task,
        seed: draw.seed,
        size: o.groupSize,
        policy: { model: o.model, adapter: versionName(o.run, this.version), version: this.version },
        settings: { ...o.episode, reset_options: draw.resetOptions, ...(rotation ? { policy_servers: rotation } : {}) },
        submitted_at: new Date().toISOString(),
      };
      await submitter.submit(group);
      const startStep = draw.resetOptions['start_step'];
      this.outstanding.set(group.group_id, typeof startStep === 'number' ? startStep : undefined);
      this.counts.submitted++;
    }
  }

  private take(event: LoopEvent): void {
    const { o, counts } = this;
    if (event.kind === 'dropped') {
      if (!this.outstanding.delete(event.id)) return;
      this.done.push(event.id);
      // Its version was retired while it waited: stale, as admission would have found it.
      if (isRetiredVersionReason(event.reason)) counts.retired++;
      else {
        counts.dropped++;
        this.drops.dropped(event.id, event.reason);
      }
      return;
    }
    if (event.kind === 'bad') {
      // Refused at the door (never reaches the learner); one of ours was taken off the queue.
      counts.bad++;
      if (event.id !== null && this.outstanding.delete(event.id)) {
        counts.consumed++;
        this.done.push(event.id);
      }
      this.log(`${event.message}; not trained on`);
      return;
    }
    const { group } = event;
    const startStep = this.outstanding.get(group.group_id);
    if (!this.outstanding.delete(group.group_id)) {
      counts.foreign++;
      this.log(`group ${group.group_id} is not one this process submitted; not trained on`);
      return;
    }
    counts.consumed++;
    o.sampler.curriculum.record(
      group.task,
      group.trajectories.map((t) => t.outcome === 'success'),
      startStep,
    );
    const verdict = admitGroup(group, o.run, this.version, o.maxStaleness);
    this.keeper?.keep(group, this.version, verdict.admitted ? 'admitted' : verdict.reason);
    if (verdict.admitted) {
      counts.admitted++;
      this.batch.push({ group, staleness: verdict.staleness });
      return;
    }
    this.done.push(group.group_id);
    if (verdict.reason === 'stale') counts.stale++;
    else {
      counts.rejected++;
      this.log(`${verdict.detail}; not trained on`);
    }
  }

  private async update(waitSeconds: number): Promise<void> {
    const { o } = this;
    const taken = this.batch.splice(0, o.groupsPerUpdate);
    const groups = taken.map((t) => t.group);
    // Trained on, or not trainable: either way done with once this update is over.
    this.done.push(...groups.map((g) => g.group_id));
    const prepared = o.learner.prepare(groups);
    if (!prepared) {
      // Scripted or empty episodes: nothing was sampled, so there is nothing to train.
      this.counts.unused += groups.length;
      this.log(`${groups.length} group(s) had no sampled token to train on; no update`);
      return;
    }
    const t0 = performance.now();
    // Not cut short by a signal: an update runs to its end, then the loop stops and checkpoints.
    const trained = await prepared.train().catch((error: Error) => this.failedUpdate(groups, error));
    if (!trained) return;
    this.failedInARow = 0;
    const t1 = performance.now();
    this.version++;
    await this.publish();
    const t2 = performance.now();
    const staleness = taken.map((t) => t.staleness);
    const summary = batchSummary(groups, waitSeconds + (t2 - t0) / 1000);
    const totals = this.totals();
    const metrics: Record<string, number> = {
      ...prepared.metrics,
      ...trained,
      ...summary.metrics,
      'staleness/mean': staleness.reduce((a, b) => a + b, 0) / staleness.length,
      'staleness/max': Math.max(...staleness),
      'groups/submitted': totals.submitted,
      'groups/dropped': totals.dropped,
      // Too old to train on either way: refused at admission, or retired before it was played.
      'groups/stale': totals.stale + totals.retired,
      'groups/bad': totals.bad + totals.foreign + totals.rejected,
      'groups/failed': totals.failed,
      'groups/in_flight': this.outstanding.size,
      'time/wait_s': waitSeconds,
      'time/update_s': (t1 - t0) / 1000,
      'time/publish_s': (t2 - t1) / 1000,
    };
    await o.onUpdate({ ...summary, metrics, step: this.version, version: this.version });
    if (o.checkpointEvery && this.version % o.checkpointEvery === 0) await o.onCheckpoint?.(this.version, 'every');
  }

  private log(line: string): void {
    this.o.log(`${this.label}: ${line}`);
  }

  /** The engine refused a batch: it is dropped (counted, logged once), and the run goes on unless it keeps happening. */
  private failedUpdate(groups: readonly TrajectoryGroup[], error: Error): null {
    this.counts.failed += groups.length;
    this.failedInARow++;
    const limit = this.o.maxFailedUpdates ?? 3;
    const what = `the update on group(s) ${groups.map((g) => g.group_id).join(', ')} failed in the engine: ${error.message}`;
    if (this.failedInARow >= limit)
      throw new Error(`${this.label}: ${limit} updates in a row failed; the last: ${what}`, { cause: error });
    this.log(`${what}; batch dropped, not trained on`);
    return null;
  }

  /** Events can be missed across a Redis reconnect: ask for the fate of what is still out. */
  private async reconcile(tracker: GroupTracker, consumer: GroupConsumer): Promise<void> {
    for (const id of [...this.outstanding.keys()]) {
      const fate = await tracker.fate(id);
      if (fate === 'dropped') await this.dropped(tracker, id);
      // Handed to the trainer's queue and already taken, yet never seen here (the event queue is
      // empty now): an earlier process consumed it after its last checkpoint.
      else if (fate === 'completed' && (await consumer.taken(id))) {
        this.outstanding.delete(id);
        this.counts.lost++;
        this.log(`group ${id} was consumed by an earlier process after its checkpoint; counted lost`);
      }
    }
  }

  /** Admitted groups the run ends without training on. */
  private unused(): void {
    const left = this.batch.splice(0);
    this.counts.unused += left.length;
    this.done.push(...left.map((b) => b.group.group_id));
  }

  /** After the last update: let what is in flight finish (counted unused), then remove the rest. */
  private async drain(tracker: GroupTracker, submitter: GroupSubmitter, consumer: GroupConsumer): Promise<void> {
    const until = Date.now() + (this.o.drainMs ?? 60_000);
    this.unused();
    while (this.outstanding.size > 0 && Date.now() < until) {
      const event = await this.events.next(Math.min(5_000, Math.max(1, until - Date.now())));
      if (!event) {
        await this.reconcile(tracker, consumer);
        continue;
      }
      const before = this.counts.consumed;
      this.take(event);
      if (this.counts.consumed > before) this.unused();
    }
    for (const id of [...this.outstanding.keys()]) {
      // A group whose episodes are being played is locked: it finishes on the trainer's queue, unread.
      await submitter.remove(id).catch((error: Error) => this.log(`group ${id} left in the queues: ${error.message}`));
      this.outstanding.delete(id);
      this.counts.abandoned++;
    }
  }
}
