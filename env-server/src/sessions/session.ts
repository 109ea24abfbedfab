import { randomUUID } from 'node:crypto';
import {
  EpisodeStateError, InfraError, SessionError, ValidationError,
  type ObservationOptions, type ResetRequest, type State, type StepResult,
} from '@gauntlet/proto';
import type { BrowserPool, ContextLease } from '../browser/pool.js';
import type { ServerConfig } from '../config.js';
import type { TaskRegistry } from '../tasks/registry.js';
import type { TaskDefinition } from '../tasks/task.js';
import { UnknownTaskError } from '../tasks/registry.js';
import { Episode } from './episode.js';
import { SerialQueue } from './queue.js';
import { Tabs } from './tabs.js';
import { withDeadline } from './deadline.js';
import { resolveActionOptions } from './action-options.js';
import { runStep } from './step.js';
import { buildResult } from './result.js';

export interface SessionDeps {
  pool: BrowserPool;
  registry: TaskRegistry;
  config: ServerConfig;
}

const DEFAULT_STEP_TIMEOUT_MS = 30_000;

/**
 * One environment instance leased to one client: a browser context, its tabs and the current
 * episode. Calls run one at a time; a dead browser turns into INFRA_ERROR until the next reset,
 * which moves the session to a fresh context.
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

  touch(): void {
    this.lastActivity = Date.now();
  }

  /** Called when the browser hosting this session died. */
  markBroken(reason: string): void {
    this.brokenReason = reason;
  }

  async reset(request: ResetRequest): Promise<StepResult> {
    this.touch();
    const task = this.resolveTask(request.task_name);
    const budget = Math.max(this.deps.config.pageTimeoutMs * 3, task.setupTimeoutMs?.(request.options ?? {}) ?? 0);
    return withDeadline(budget, 'reset', (signal) => this.queue.run(() => this.doReset(request, task, signal)));
  }

  step(actionText: string, timeoutMs = DEFAULT_STEP_TIMEOUT_MS): Promise<StepResult> {
    this.touch();
    return withDeadline(timeoutMs, 'step', (signal) => this.queue.run(() => this.doStep(actionText, signal)));
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
      max_steps: episode?.task.maxSteps ?? null,
      cum_reward: episode?.cumReward ?? 0,
      session_id: this.id,
      seed: episode?.seed ?? null,
      done: episode?.done ?? false,
    };
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const lease = this.lease;
    this.lease = undefined;
    if (lease) await this.deps.pool.release(lease);
  }

  private async attach(): Promise<void> {
    const lease = await this.deps.pool.acquire();
    if (this.closed) {
      await this.deps.pool.release(lease);
      throw new SessionError('session closed while opening');
    }
    this.lease = lease;
    this.tabs = new Tabs(lease.context, lease.page);
    this.brokenReason = undefined;
    lease.page.on('crash', () => this.markBroken('the page crashed'));
  }

  private async doReset(request: ResetRequest, task: TaskDefinition, signal: AbortSignal): Promise<StepResult> {
    this.assertOpen();
    signal.throwIfAborted();
    if (this.brokenReason || !this.lease || !this.deps.pool.isAlive(this.lease.generation)) {
      const old = this.lease;
      this.lease = undefined;
      if (old) await this.deps.pool.release(old);
      await this.attach();
    }
    const observation: ObservationOptions = { ...this.deps.config.defaultObservation, ...request.observation };
    const actions = resolveActionOptions({ ...request.action_set, subsets: request.action_set?.subsets ?? task.defaultActionSubsets?.slice() }, this.deps.config);
    const seed = request.seed ?? Math.floor(Math.random() * 2 ** 31);
    const tabs = this.tabs!;
    await tabs.keepOnlyFirst();
    const { goal, info } = await this.guardInfra(() => task.setup(tabs.active, seed, request.options ?? {}, signal));
    this.episode = new Episode(task, seed, request.episode_id ?? randomUUID(), goal, observation, actions);
    return this.guardInfra(() => buildResult(this.episode!, tabs, 0, { resetMs: 0, task_info: info ?? {} }));
  }

  private async doStep(actionText: string, signal: AbortSignal): Promise<StepResult> {
    this.assertOpen();
    // The caller may have given up while this call waited its turn.
    signal.throwIfAborted();
    const episode = this.episode;
    if (!episode) throw new EpisodeStateError('Call reset before step: this session has no episode yet');
    if (this.brokenReason) throw new InfraError(`Browser lost during the episode (${this.brokenReason}); reset to continue on a fresh browser`);
    if (episode.done) throw new EpisodeStateError('The episode is over (done=true); call reset to start a new one');
    return this.guardInfra(() => runStep({ episode, tabs: this.tabs!, lease: this.lease!, config: this.deps.config, actionText, signal }));
  }

  private resolveTask(name: string | undefined) {
    try {
      return this.deps.registry.resolve(name ?? this.deps.config.defaultTask);
    } catch (error) {
      if (error instanceof UnknownTaskError) throw new ValidationError(error.message, [{ loc: ['body', 'task_name'], msg: error.message, type: 'value_error', input: name }]);
      throw error;
    }
  }

  /** Turns failures caused by a dead browser or page into INFRA_ERROR. */
  private async guardInfra<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      const lease = this.lease;
      const browserDead = !lease || !this.deps.pool.isAlive(lease.generation) || lease.page.isClosed();
      if (browserDead || this.brokenReason) {
        this.markBroken(this.brokenReason ?? 'the browser disconnected');
        throw new InfraError(`Browser lost during the episode (${this.brokenReason}); reset to continue on a fresh browser`);
      }
      throw error;
    }
  }

  private assertOpen(): void {
    if (this.closed) throw new SessionError('session is closed');
  }
}
