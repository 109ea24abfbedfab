import { randomUUID } from 'node:crypto';
import {
  DeadlineExceededError,
  EpisodeStateError,
  InfraError,
  SessionError,
  type ObservationOptions,
  type RecordReply,
  type ResetRequest,
  type State,
  type StepResult,
} from '@gauntlet/proto';
import type { Frame, Page } from 'playwright-core';
import { sameDisplay, type BrowserPool, type ContextLease } from '../browser/pool.js';
import { clearNavigationRefusals } from '../browser/navigation-guard.js';
import type { EnvConfig } from '../tasks/task-settings.js';
import type { TaskRegistry } from '../tasks/registry.js';
import type { TaskDisplay } from '../browser/site.js';
import type { TaskDefinition } from '../tasks/task.js';
import { Episode } from './episode.js';
import { SerialQueue } from './queue.js';
import { Tabs } from './tabs.js';
import { within } from '@gauntlet/proto/deadline';
import { PageDeadline } from '../deadline/page-deadline.js';
import { CancelledError } from '../deadline/cancelled.js';
import { OVERRUN_GRACE_MS, supervise } from './supervise.js';
import { resolveActionOptions } from './action-options.js';
import { personsStep, runStep } from './step.js';
import { buildResult } from './result.js';
import { overrunResult, stepWorkMs } from './overrun.js';
import { resetBidCounters } from '../observe/mark.js';
import type { HeadedBrowser } from '../browser/headed.js';
import { Recording } from '../record/recording.js';
import { HistoryWatch } from '../record/outside-navigation.js';
import type { PlayingInput } from '../record/record-in-page.js';
import { hasRecorder, installRecorder, whilePlaying } from '../record/install-recorder.js';

export interface SessionDeps {
  pool: BrowserPool;
  /** The visible browser of headed and recording sessions (refuses when the server may not show one). */
  headed: HeadedBrowser;
  registry: TaskRegistry;
  config: EnvConfig;
}

const DEFAULT_STEP_TIMEOUT_MS = 30_000;
/** Playwright's words for a renderer that died; the session may hear of it before the `crash` event. */
const CRASHED = /Target crashed|Page crashed/;

/**
 * One environment instance leased to one client: a browser context, its tabs and the current
 * episode. Calls run one at a time, each under its own PageDeadline. A crashed page or a dead browser
 * ends the running call with INFRA_ERROR at once and turns later steps into INFRA_ERROR until
 * the next reset, which moves the session to a fresh context. A step that runs past its
 * deadline is the policy's doing: it ends the episode as truncated (see overrun.ts), and a page
 * that stopped answering by then is given up after a grace, so no call keeps the session busy
 * past its deadline and that grace.
 */
export class EnvSession {
  readonly id = randomUUID();
  readonly createdAt = Date.now();
  lastActivity = Date.now();
  private lease: ContextLease | undefined;
  private tabs: Tabs | undefined;
  private episode: Episode | undefined;
  private brokenReason: string | undefined;
  /** A step overran: its work may still hold the page (a navigation, keys down), so the next reset starts on a fresh context. */
  private stale = false;
  private closed = false;
  private readonly queue = new SerialQueue();
  /** Deadlines of the calls running or queued, so a close can end them. */
  private readonly operations = new Set<PageDeadline>();
  /** Deadlines of the calls running now, so a crash can end them (a queued reset must still run: it recovers). */
  private readonly running = new Set<PageDeadline>();
  /** The pool the current context came from: the headless one, or the headed one. */
  private pool: BrowserPool;
  private recording: Recording | undefined;

  constructor(private readonly deps: SessionDeps) {
    this.pool = deps.pool;
  }

  /** Whether this session's context lives in `pool` (a lost browser breaks only its own sessions). */
  usesPool(pool: BrowserPool): boolean {
    return this.pool === pool;
  }

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
    for (const operation of this.running) operation.abort(this.infraError());
  }

  /**
   * `cancel` aborting (the caller went away) stops the reset with a CancelledError. A reset that
   * lost its page or browser midway (a renderer crash racing it) has delivered nothing yet, so it
   * runs once more on a fresh context within what is left of its budget: the caller sees a reset,
   * not an INFRA_ERROR it would have to retry.
   */
  async reset(request: ResetRequest, cancel?: AbortSignal): Promise<StepResult> {
    this.touch();
    const task = this.resolveTask(request.task_name);
    const budget = Math.max(this.deps.config.pageTimeoutMs * 3, task.setupTimeoutMs?.(request.options ?? {}) ?? 0);
    const ends = Date.now() + budget;
    const attempt = (ms: number) => this.run('reset', ms, cancel, (deadline) => this.doReset(request, task, deadline));
    try {
      return await attempt(budget);
    } catch (error) {
      const left = ends - Date.now();
      if (!(error instanceof InfraError) || this.closed || cancel?.aborted || left <= 0) throw error;
      return attempt(left);
    }
  }

  /** Past `timeoutMs` (less the reply's reserve) the episode ends as truncated: see overrun.ts. */
  step(actionText: string, timeoutMs = DEFAULT_STEP_TIMEOUT_MS, cancel?: AbortSignal): Promise<StepResult> {
    this.touch();
    return this.run(
      'step',
      stepWorkMs(timeoutMs),
      cancel,
      (deadline) => this.doStep(actionText, deadline),
      () => this.overran(actionText, timeoutMs),
    );
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
      max_steps: episode && Number.isFinite(episode.maxSteps) ? episode.maxSteps : null,
      cum_reward: episode?.cumReward ?? 0,
      session_id: this.id,
      seed: episode?.seed ?? null,
      done: episode?.done ?? false,
    };
  }

  /** The next action of the person in a recording session (see Recording.next). */
  async record(waitMs: number, cancel?: AbortSignal): Promise<RecordReply> {
    this.touch();
    if (this.closed) throw new SessionError('session is closed');
    if (!this.recording)
      throw new EpisodeStateError('This session is not recording: reset with browser.record = true first');
    const reply = await this.recording.next(waitMs, cancel);
    this.touch();
    return reply;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.recording?.stop();
    // Stop the work first, so it ends as cancelled rather than failing on the context closed below.
    for (const operation of this.operations)
      operation.abort(new CancelledError('the session was closed while this call ran'));
    await this.detach();
  }

  /**
   * Runs one call in its turn under a deadline of `ms` (counted from now, so waiting for the turn
   * counts too). The caller hears at the deadline, a cancel or a crash at once; the queue moves
   * on once the work wound down, or `OVERRUN_GRACE_MS` later with the context recycled. When the
   * deadline itself ended the call, `overran` (if given) answers in its place.
   */
  private run<T>(
    what: 'step' | 'reset',
    ms: number,
    cancel: AbortSignal | undefined,
    body: (deadline: PageDeadline) => Promise<T>,
    overran?: () => T,
  ): Promise<T> {
    const deadline = new PageDeadline(what, {
      ms,
      signal: cancel,
      cancelReason: () => new CancelledError(`the caller cancelled the ${what}`),
    });
    this.operations.add(deadline);
    const work = this.queue
      .run(async () => {
        this.running.add(deadline);
        try {
          return await supervise(deadline, body, () => this.recycle('the page stopped responding to input'));
        } finally {
          this.running.delete(deadline);
        }
      })
      .finally(() => {
        this.operations.delete(deadline);
        deadline.dispose();
      });
    return deadline.race(work).catch((error: unknown) => {
      if (overran && deadline.isReason(error) && error instanceof DeadlineExceededError) return overran();
      throw error;
    });
  }

  /** The step's deadline passed: the policy's timeout, unless there is no live episode to end. */
  private overran(actionText: string, timeoutMs: number): StepResult {
    const episode = this.episode;
    const refusal = this.stepRefusal();
    if (refusal || !episode) throw refusal;
    this.stale = true;
    return overrunResult(episode, this.brokenReason === undefined ? this.tabs : undefined, actionText, timeoutMs);
  }

  /** Takes a context; one that arrives after the session closed or the reset gave up goes straight back. */
  private async attach(deadline?: PageDeadline, display?: TaskDisplay, pool = this.pool): Promise<void> {
    const lease = await pool.acquire(display);
    if (this.closed || deadline?.aborted) {
      await pool.release(lease);
      deadline?.throwIfAborted();
      throw new SessionError('session closed while opening');
    }
    this.lease = lease;
    this.pool = pool;
    this.brokenReason = undefined;
    this.stale = false;
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
    if (lease) await within(this.pool.release(lease), OVERRUN_GRACE_MS);
  }

  /** The page stopped answering: give its context up now; the next reset attaches a fresh one. */
  private async recycle(reason: string): Promise<void> {
    this.markBroken(reason);
    await this.detach();
  }

  private async doReset(request: ResetRequest, task: TaskDefinition, deadline: PageDeadline): Promise<StepResult> {
    this.assertOpen();
    this.recording?.stop();
    this.recording = undefined;
    // A headed or recording episode runs in the visible browser, every other in the headless one.
    const recording = request.browser?.record === true;
    const pool = request.browser?.headed || recording ? this.deps.headed.get() : this.deps.pool;
    // A task made for another viewport or scale (real MiniWoB++) gets a context made for it.
    const display = task.display ?? this.deps.config.baseDisplay;
    // A context that recorded stops clicks in its pages for good: only a recording reuses it.
    const misfit =
      this.lease &&
      (!sameDisplay(this.lease.display, display) ||
        pool !== this.pool ||
        (!recording && hasRecorder(this.lease.context)));
    const fresh = this.brokenReason || this.stale || !this.lease || misfit;
    if (fresh || !this.pool.isAlive(this.lease!.generation)) {
      await this.detach();
      await this.attach(deadline, display, pool);
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
    const episode = this.episode;
    const result = await this.guardInfra(() => buildResult(episode, tabs, 0, info, deadline));
    if (recording) {
      const page = tabs.active;
      const history = await this.guardInfra(() => deadline.race(HistoryWatch.open(page)));
      const navigations = {
        changes: () => history.changes(),
        close: async () => {
          page.off('framenavigated', navigated);
          await history.close();
        },
      };
      const taken = new Recording(
        result,
        episode.startedAt,
        (action, played) => this.playRecorded(episode, action, played),
        navigations,
      );
      // The address bar and back/forward leave no input in the page: the history tells them.
      const navigated = (frame: Frame) => {
        if (frame === page.mainFrame()) taken.onNavigated();
      };
      page.on('framenavigated', navigated);
      try {
        await this.guardInfra(() => deadline.race(installRecorder(page, (input) => taken.onInput(input))));
      } catch (error) {
        taken.stop();
        throw error;
      }
      this.recording = taken;
    }
    return result;
  }

  /**
   * A person's action in a recording session: one the page stopped (`played`: a click, a key) is
   * played by the env now, as a step; one already done on the page (typing, a select, a scroll) is
   * settled, then the task's status and the next observation are read.
   */
  private playRecorded(episode: Episode, action: string, played?: PlayingInput): Promise<StepResult> {
    return this.run('step', DEFAULT_STEP_TIMEOUT_MS, undefined, async (deadline) => {
      const refusal = this.stepRefusal();
      if (refusal) throw refusal;
      if (this.episode !== episode) throw new EpisodeStateError('A new episode started while recording');
      if (this.brokenReason || !this.tabs || !this.lease) throw this.infraError();
      const { tabs, lease } = this;
      const config = this.deps.config;
      if (played)
        return this.guardInfra(() =>
          whilePlaying(tabs.active, played, () =>
            runStep({ episode, tabs, lease, config, actionText: action, deadline }),
          ),
        );
      return this.guardInfra(() => personsStep(episode, tabs, action, deadline));
    });
  }

  private async doStep(actionText: string, deadline: PageDeadline): Promise<StepResult> {
    const episode = this.episode;
    const refusal = this.stepRefusal();
    if (refusal || !episode) throw refusal;
    if (this.brokenReason || !this.lease || !this.tabs) throw this.infraError();
    const { lease, tabs } = this;
    return this.guardInfra(() => runStep({ episode, tabs, lease, config: this.deps.config, actionText, deadline }));
  }

  /** Why no step can run now: a closed session, no episode, or one that is over. */
  private stepRefusal(): Error | undefined {
    if (this.closed) return new SessionError('session is closed');
    if (!this.episode) return new EpisodeStateError('Call reset before step: this session has no episode yet');
    // Before a broken page: after a step that overran, the page may be gone, but the episode ended as the policy's.
    if (this.episode.done)
      return new EpisodeStateError('The episode is over (done=true); call reset to start a new one');
    return undefined;
  }

  private resolveTask(name: string | undefined) {
    return this.deps.registry.resolve(name ?? this.deps.config.defaultTask, this.deps.config.benchmark);
  }

  /** Turns failures caused by a dead browser or a crashed page into INFRA_ERROR. */
  private async guardInfra<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      const lease = this.lease;
      if (!lease || !this.pool.isAlive(lease.generation) || lease.page.isClosed())
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
