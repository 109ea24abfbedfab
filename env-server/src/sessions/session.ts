import { randomUUID } from 'node:crypto';
import {
  EpisodeStateError,
  InfraError,
  SessionError,
  ValidationError,
  type ObservationOptions,
  type ResetRequest,
  type State,
  type StepResult,
} from '@gauntlet/proto';
import type { Page } from 'playwright-core';
import { sameDisplay, type BrowserPool, type ContextLease } from '../browser/pool.js';
import { clearNavigationRefusals } from '../browser/navigation-guard.js';
import type { EnvConfig } from '../server/task-settings.js';
import type { TaskRegistry } from '../tasks/registry.js';
import type { TaskDefinition, TaskDisplay } from '../tasks/task.js';
import { UnknownTaskError } from '../tasks/registry.js';
import { Episode } from './episode.js';
import { SerialQueue } from './queue.js';
import { Tabs } from './tabs.js';
import { Deadline, within } from '../deadline/deadline.js';
import { CancelledError } from '../deadline/cancelled.js';
import { OVERRUN_GRACE_MS, supervise } from './supervise.js';
import { resolveActionOptions } from './action-options.js';
import { runStep } from './step.js';
import { buildResult } from './result.js';
import { resetBidCounters } from '../observe/mark.js';

export interface SessionDeps {
  pool: BrowserPool;
  registry: TaskRegistry;
  config: EnvConfig;
}

const DEFAULT_STEP_TIMEOUT_MS = 30_000;
/** Playwright's words for a renderer that died; the session may hear of it before the `crash` event. */
const CRASHED = /Target crashed|Page crashed/;

/**
 * One environment instance leased to one client: a browser context, its tabs and the current
 * episode. Calls run one at a time, each under its own Deadline. A crashed page or a dead browser
 * ends the running call with INFRA_ERROR at once and turns later steps into INFRA_ERROR until
 * the next reset, which moves the session to a fresh context; so does a page that stopped
 * answering past a deadline, so no call keeps the session busy past its deadline and a grace.
 */
export class EnvSession {
  readonly id = randomUUID();
  readonly createdAt = Date.now();
  lastActivity = Date.now();
  private lease: ContextLease | undefined;
  private tabs: Tabs | undefined;
  private episode: Episode | undefined;
  private brokenReason: string | undefined;
  private closed = false;
  private readonly queue = new SerialQueue();
  /** Deadlines of the calls running or queued, so a crash or a close can end them. */
  private readonly operations = new Set<Deadline>();

  constructor(private readonly deps: SessionDeps) {}

  /** Takes a context from the pool (warm when possible). */
  async open(): Promise<void> {
    await this.attach();
  }

  get generation(): number | undefined {
    return this.lease?.generation;
  }

  get isClosed(): boolean {
    return this.closed;
  }

  get busy(): boolean {
    return this.queue.pending > 0;
  }

  /** The session's open tabs (diagnostics, tests); empty while it holds no browser context. */
  pages(): Page[] {
    return this.tabs?.all() ?? [];
  }

  touch(): void {
    this.lastActivity = Date.now();
  }

  /** Called when the browser or a page of this session died: running calls end with INFRA_ERROR now. */
  markBroken(reason: string): void {
    if (this.brokenReason !== undefined) return;
    this.brokenReason = reason;
    for (const operation of this.operations) operation.abort(this.infraError());
  }

  /** `cancel` aborting (the caller went away) stops the reset with a CancelledError. */
  async reset(request: ResetRequest, cancel?: AbortSignal): Promise<StepResult> {
    this.touch();
    const task = this.resolveTask(request.task_name);
    const budget = Math.max(this.deps.config.pageTimeoutMs * 3, task.setupTimeoutMs?.(request.options ?? {}) ?? 0);
    return this.run('reset', budget, cancel, (deadline) => this.doReset(request, task, deadline));
  }

  step(actionText: string, timeoutMs = DEFAULT_STEP_TIMEOUT_MS, cancel?: AbortSignal): Promise<StepResult> {
    this.touch();
    return this.run('step', timeoutMs, cancel, (deadline) => this.doStep(actionText, deadline));
  }

  state(): State {
    this.touch();
    const episode = this.episode;
    return {
      episode_id: episode?.episodeId ?? null,
      step_count: episode?.stepCount ?? 0,
      benchmark: episode?.task.benchmark ?? '',
      task_name: episode ? `${episode.task.benchmark}.${episode.task.name}` : '',
      task_id: episode ? `${episode.task.benchmark}.${episode.task.name}:${episode.seed}` : '',
      goal: episode?.goal ?? '',
      current_url: this.tabs && !this.brokenReason ? this.tabs.active.url() : '',
      max_steps: episode && Number.isFinite(episode.task.maxSteps) ? episode.task.maxSteps : null,
      cum_reward: episode?.cumReward ?? 0,
      session_id: this.id,
      seed: episode?.seed ?? null,
      done: episode?.done ?? false,
    };
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    // Stop the work first, so it ends as cancelled rather than failing on the context closed below.
    for (const operation of this.operations)
      operation.abort(new CancelledError('the session was closed while this call ran'));
    await this.detach();
  }

  /**
   * Runs one call in its turn under a deadline of `ms` (counted from now, so waiting for the turn
   * counts too). The caller hears at the deadline, a cancel or a crash at once; the queue moves
   * on once the work wound down, or `OVERRUN_GRACE_MS` later with the context recycled.
   */
  private run<T>(
    what: 'step' | 'reset',
    ms: number,
    cancel: AbortSignal | undefined,
    body: (deadline: Deadline) => Promise<T>,
  ): Promise<T> {
    const deadline = new Deadline(what, ms);
    const onCancel = () => deadline.abort(new CancelledError(`the caller cancelled the ${what}`));
    if (cancel?.aborted) onCancel();
    cancel?.addEventListener('abort', onCancel, { once: true });
    this.operations.add(deadline);
    const work = this.queue
      .run(() => supervise(deadline, body, () => this.recycle('the page stopped responding to input')))
      .finally(() => {
        this.operations.delete(deadline);
        cancel?.removeEventListener('abort', onCancel);
      });
    return deadline.race(work);
  }

  /** Takes a context; one that arrives after the session closed or the reset gave up goes straight back. */
  private async attach(deadline?: Deadline, display?: TaskDisplay): Promise<void> {
    const lease = await this.deps.pool.acquire(display);
    if (this.closed || deadline?.aborted) {
      await this.deps.pool.release(lease);
      deadline?.throwIfAborted();
      throw new SessionError('session closed while opening');
    }
    this.lease = lease;
    this.brokenReason = undefined;
    this.tabs = new Tabs(lease.context, lease.page, {
      maxTabs: this.deps.config.maxTabs,
      onCrash: () => {
        // A crash of a context given up on already is no news.
        if (this.lease === lease) this.markBroken('the page crashed');
      },
    });
  }

  /** Gives the context back (closing it ends any browser call still pending on it). */
  private async detach(): Promise<void> {
    const lease = this.lease;
    this.lease = undefined;
    this.tabs = undefined;
    if (lease) await within(this.deps.pool.release(lease), OVERRUN_GRACE_MS);
  }

  /** The page stopped answering: give its context up now; the next reset attaches a fresh one. */
  private async recycle(reason: string): Promise<void> {
    this.markBroken(reason);
    await this.detach();
  }

  private async doReset(request: ResetRequest, task: TaskDefinition, deadline: Deadline): Promise<StepResult> {
    this.assertOpen();
    // A task made for another viewport or scale (real MiniWoB++) gets a context made for it.
    const display = task.display ?? this.deps.config.baseDisplay;
    const misfit = this.lease && !sameDisplay(this.lease.display, display);
    if (this.brokenReason || !this.lease || misfit || !this.deps.pool.isAlive(this.lease.generation)) {
      await this.detach();
      await this.attach(deadline, display);
    }
    const observation: ObservationOptions = { ...this.deps.config.defaultObservation, ...request.observation };
    const actions = resolveActionOptions(
      { ...request.action_set, subsets: request.action_set?.subsets ?? task.defaultActionSubsets?.slice() },
      this.deps.config,
    );
    const seed = request.seed ?? Math.floor(Math.random() * 2 ** 31);
    const tabs = this.tabs!;
    const taskEpisode = await this.guardInfra(async () => {
      await deadline.race(tabs.keepOnlyFirst());
      const started = await deadline.race(task.setup(tabs.active, seed, request.options ?? {}, deadline));
      // Bids restart with every episode, so the same seed shows the same bids on a reused page.
      await deadline.race(resetBidCounters(tabs.active));
      // What the task's own pages loaded is no action of the agent's.
      clearNavigationRefusals(tabs.active.context());
      return started;
    });
    // Work given up on (deadline, cancel) must not replace the episode a later reset starts.
    deadline.throwIfAborted();
    this.episode = new Episode(task, seed, request.episode_id ?? randomUUID(), taskEpisode, observation, actions);
    const info = { resetMs: 0, task_info: taskEpisode.info ?? {} };
    return this.guardInfra(() => buildResult(this.episode!, tabs, 0, info, deadline));
  }

  private async doStep(actionText: string, deadline: Deadline): Promise<StepResult> {
    this.assertOpen();
    const episode = this.episode;
    if (!episode) throw new EpisodeStateError('Call reset before step: this session has no episode yet');
    if (this.brokenReason || !this.lease || !this.tabs) throw this.infraError();
    if (episode.done) throw new EpisodeStateError('The episode is over (done=true); call reset to start a new one');
    const { lease, tabs } = this;
    return this.guardInfra(() => runStep({ episode, tabs, lease, config: this.deps.config, actionText, deadline }));
  }

  private resolveTask(name: string | undefined) {
    try {
      return this.deps.registry.resolve(name ?? this.deps.config.defaultTask, this.deps.config.benchmark);
    } catch (error) {
      if (error instanceof UnknownTaskError)
        throw new ValidationError(error.message, [
          { loc: ['body', 'task_name'], msg: error.message, type: 'value_error', input: name },
        ]);
      throw error;
    }
  }

  /** Turns failures caused by a dead browser or a crashed page into INFRA_ERROR. */
  private async guardInfra<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      const lease = this.lease;
      if (!lease || !this.deps.pool.isAlive(lease.generation) || lease.page.isClosed())
        this.markBroken('the browser disconnected');
      else if (error instanceof Error && CRASHED.test(error.message)) this.markBroken('the page crashed');
      if (this.brokenReason !== undefined && !(error instanceof CancelledError)) throw this.infraError();
      throw error;
    }
  }

  private infraError(): InfraError {
    return new InfraError(
      `Browser lost during the episode (${this.brokenReason ?? 'the browser disconnected'}); reset to continue on a fresh browser`,
    );
  }

  private assertOpen(): void {
    if (this.closed) throw new SessionError('session is closed');
  }
}
