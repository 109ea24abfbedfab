import { Worker, type Transferable, type WorkerOptions } from 'node:worker_threads';

/** What a worker answers to one call: its result, or the error it threw, by name and message. */
export type WorkerReply<T> =
  { id: number; result: T } | { id: number; error: { name: string; message: string; status?: number } };

/**
 * Calls into a worker thread, one promise per call, matched by id. The worker posts
 * `{ready: true}` once it can take calls. If it dies (an exception it did not catch, running out
 * of memory), every call in flight and every later one fails with that reason instead of hanging.
 */
export class WorkerCalls {
  private readonly worker: Worker;
  private readonly pending = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  private nextId = 0;
  private failed: Error | undefined;
  readonly ready: Promise<void>;

  constructor(
    file: URL,
    options: WorkerOptions,
    private readonly what: string,
  ) {
    this.worker = new Worker(file, options);
    this.ready = new Promise((resolve, reject) => {
      const onMessage = (message: { ready?: boolean }) => {
        if (!message?.ready) return;
        // Only a worker with calls in flight keeps the process alive; an idle one must not.
        if (this.pending.size === 0) this.worker.unref();
        resolve();
      };
      this.worker.once('message', onMessage);
      this.worker.once('error', reject);
      this.worker.once('exit', (code) => reject(new Error(`${what} stopped before it was ready (exit code ${code})`)));
    });
    this.worker.on('message', (reply: WorkerReply<unknown>) => this.settle(reply));
    this.worker.on('error', (error) => this.fail(new Error(`${what} failed: ${error.message}`)));
    this.worker.on('exit', (code) => this.fail(new Error(`${what} stopped (exit code ${code})`)));
  }

  /** Why the worker can take no more calls, once it cannot. */
  get failure(): Error | undefined {
    return this.failed;
  }

  call<T>(message: object, transfer: readonly Transferable[] = []): Promise<T> {
    if (this.failed) return Promise.reject(this.failed);
    const id = this.nextId++;
    if (this.pending.size === 0) this.worker.ref();
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      this.worker.postMessage({ ...message, id }, [...transfer]);
    });
  }

  async terminate(): Promise<void> {
    this.fail(new Error(`${this.what} was shut down`));
    await this.worker.terminate();
  }

  private settle(reply: WorkerReply<unknown>): void {
    const waiting = this.pending.get(reply?.id);
    if (!waiting) return;
    this.pending.delete(reply.id);
    if (this.pending.size === 0) this.worker.unref();
    if ('error' in reply)
      waiting.reject(
        Object.assign(new Error(reply.error.message), { name: reply.error.name, status: reply.error.status }),
      );
    else waiting.resolve(reply.result);
  }

  private fail(error: Error): void {
    this.failed ??= error;
    for (const { reject } of this.pending.values()) reject(this.failed);
    this.pending.clear();
  }
}
