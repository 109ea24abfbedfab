import { QUEUES } from '../jobs.js';
import { Queue, QueueEvents } from 'bullmq';
import type { QueueConnection } from './connection.js';
import { groupDropReason } from './drop-reason.js';

export type GroupFate = 'completed' | 'dropped';

/** Group states that mean it is still being played or assembled. */
const IN_FLIGHT = ['waiting-children', 'waiting', 'active', 'delayed', 'prioritized'] as const;

/**
 * Watches groups finish from a producer: how many are still in flight (for backpressure) and
 * when each of a set is completed or dropped. Event-driven (QueueEvents on Redis streams), with
 * an occasional recount in case an event was missed across a reconnect.
 */
export class GroupTracker {
  private readonly queue: Queue;
  private readonly episodes: Queue;
  private readonly events: QueueEvents;
  private readonly listeners = new Set<(groupId: string, fate: GroupFate) => void>();

  constructor(connection: QueueConnection) {
    const base = { connection: connection.redis, prefix: connection.prefix };
    this.queue = connection.watch.track(new Queue(QUEUES.groups, base));
    this.episodes = connection.watch.track(new Queue(QUEUES.episodes, base));
    this.events = connection.watch.track(new QueueEvents(QUEUES.groups, base));
    this.events.on('completed', ({ jobId }) => this.emit(jobId, 'completed'));
    this.events.on(
      'failed',
      ({ jobId }) =>
        void this.queue.getJobState(jobId).then((state) => state === 'failed' && this.emit(jobId, 'dropped')),
    );
  }

  async ready(): Promise<void> {
    await this.events.waitUntilReady();
  }

  /** Groups waiting for episodes, waiting to be assembled, or being assembled. */
  async inFlight(): Promise<number> {
    const counts = await this.queue.getJobCounts(...IN_FLIGHT);
    return Object.values(counts).reduce((a, b) => a + b, 0);
  }

  /** Resolves once fewer than `cap` groups are in flight. */
  async belowCap(cap: number, signal?: AbortSignal): Promise<void> {
    while ((await this.inFlight()) >= cap) await this.nextEvent(5_000, signal);
  }

  /** The fate of one group now, or undefined while it is in flight. */
  async fate(groupId: string): Promise<GroupFate | undefined> {
    const state = await this.queue.getJobState(groupId);
    return state === 'completed' ? 'completed' : state === 'failed' ? 'dropped' : undefined;
  }

  /**
   * Why a dropped group was dropped: the failure of the episode that ran out of tries (BullMQ
   * records only "child <key> failed" on the group itself), else the group's own failure.
   */
  async dropReason(groupId: string): Promise<string> {
    return groupDropReason((await this.queue.getJob(groupId))?.failedReason ?? '', this.episodes);
  }

  /** Reports the groups of `groupIds` that had already finished (before anyone listened) to the listeners. */
  async replay(groupIds: Iterable<string>): Promise<void> {
    for (const id of groupIds) {
      const fate = await this.fate(id);
      if (fate) this.emit(id, fate);
    }
  }

  /** Calls `listener` as groups finish; returns the unsubscribe function. */
  onFinished(listener: (groupId: string, fate: GroupFate) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async close(): Promise<void> {
    await Promise.allSettled([this.events.close(), this.queue.close(), this.episodes.close()]);
  }

  private emit(groupId: string, fate: GroupFate): void {
    for (const listener of this.listeners) listener(groupId, fate);
  }

  /** The next finished group, or `timeoutMs`, whichever first. */
  private nextEvent(timeoutMs: number, signal?: AbortSignal): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const done = () => {
        clearTimeout(timer);
        off();
        signal?.removeEventListener('abort', aborted);
        resolve();
      };
      const aborted = () => {
        done();
        reject(signal!.reason);
      };
      const timer = setTimeout(done, timeoutMs);
      const off = this.onFinished(done);
      signal?.addEventListener('abort', aborted, { once: true });
    });
  }
}
