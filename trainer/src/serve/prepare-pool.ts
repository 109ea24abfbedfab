import type { Transferable } from 'node:worker_threads';
import { GauntletError } from '@gauntlet/proto';
import { DEFAULT_COMPILE_BUDGET, type CompileBudget } from '../generate/compile-budget.js';
import type { CompiledSpec, StructuredSpec } from '../generate/structured.js';
import { readTokenizerFiles } from '../model/tokenizer.js';
import { PrepareLane, type LaneSetup } from './prepare-lane.js';

export interface PrepareOptions {
  /** Preparation threads: one input that takes long holds one of them, not the server. */
  threads: number;
  /** How long one call may run on a thread, and wait for one, before it is refused. */
  timeoutMs: number;
  /** What compiling one structured-output regex may spend. */
  budget: CompileBudget;
}

export const DEFAULT_PREPARE_OPTIONS: PrepareOptions = {
  threads: 2,
  timeoutMs: 30_000,
  budget: DEFAULT_COMPILE_BUDGET,
};

/** Every preparation thread was busy for as long as a call may wait: retry later. */
export class PrepareBusyError extends GauntletError {
  static override readonly httpStatus = 503;
  constructor(timeoutMs: number) {
    super('CAPACITY_REACHED', `the preparation threads were busy for ${timeoutMs} ms; retry later`);
  }
}

/** No preparation thread is running and none could be started. */
export class PrepareStoppedError extends GauntletError {
  static override readonly httpStatus = 503;
  constructor(reason: string) {
    super('INFRA_ERROR', `the preparation threads have stopped (${reason}); this server needs a restart`);
  }
}

interface Job {
  message: object;
  transfer: readonly Transferable[];
  queuedAt: number;
  timer: NodeJS.Timeout;
  resolve(value: unknown): void;
  reject(error: Error): void;
}

/**
 * The server's preparation threads (prepare-worker.ts): tokenizing large inputs, parsing large
 * bodies and compiling structured outputs, each of which can take seconds, happen there so the
 * event loop keeps answering. Calls wait in one queue for the first free thread; a call runs and
 * waits under `timeoutMs` each (prepare-lane.ts), and a thread stopped at a deadline or lost to a
 * crash is replaced (from the tokenizer files' text, read once at start), so no input holds the
 * rest for longer than that.
 */
export class PreparePool {
  private readonly lanes: (PrepareLane | undefined)[];
  private readonly queue: Job[] = [];
  private stopped: string | undefined;
  private closed = false;

  private constructor(
    lanes: PrepareLane[],
    private readonly options: PrepareOptions,
    private readonly setup: LaneSetup,
  ) {
    this.lanes = lanes;
  }

  /** Reads the tokenizer files once (a thread started later must not depend on the model folder) and starts the threads. */
  static async start(modelDir: string, options: PrepareOptions = DEFAULT_PREPARE_OPTIONS): Promise<PreparePool> {
    const setup = {
      dir: modelDir,
      files: await readTokenizerFiles(modelDir),
      budget: options.budget,
      timeoutMs: options.timeoutMs,
    };
    const started = await Promise.allSettled(Array.from({ length: options.threads }, () => PrepareLane.start(setup)));
    const lanes = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
    const failed = started.find((s) => s.status === 'rejected');
    if (failed) {
      await Promise.all(lanes.map((lane) => lane.close()));
      throw (failed as PromiseRejectedResult).reason;
    }
    return new PreparePool(lanes, options, setup);
  }

  call<T>(message: object, transfer: readonly Transferable[] = []): Promise<T> {
    if (this.stopped) return Promise.reject(new PrepareStoppedError(this.stopped));
    return new Promise<T>((resolve, reject) => {
      const job: Job = {
        message,
        transfer,
        queuedAt: performance.now(),
        resolve: resolve as (value: unknown) => void,
        reject,
        timer: setTimeout(() => {
          const at = this.queue.indexOf(job);
          if (at < 0) return;
          this.queue.splice(at, 1);
          reject(new PrepareBusyError(this.options.timeoutMs));
        }, this.options.timeoutMs),
      };
      this.queue.push(job);
      this.pump();
    });
  }

  /** A request body's bytes decoded, depth-checked and parsed (they move to the thread). */
  parseJson(bytes: Uint8Array): Promise<unknown> {
    // Socket chunks may share a pooled buffer: a copy of its own can be handed over.
    const own = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes : bytes.slice();
    return this.call<unknown>({ op: 'json', bytes: own }, [own.buffer as ArrayBuffer]);
  }

  /** A structured-output spec checked and compiled to its automaton (within the compile budget). */
  compile(spec: StructuredSpec): Promise<CompiledSpec> {
    return this.call<CompiledSpec>({ op: 'structured', spec });
  }

  /**
   * Why the pool cannot serve now, for /health: every thread stopped, or a call has waited for a
   * thread for over half of what it may (it is refused at the whole), so the threads are stalled.
   */
  health(): string | undefined {
    if (this.stopped) return `the preparation threads have stopped: ${this.stopped}`;
    const oldest = this.queue[0];
    const waited = oldest ? performance.now() - oldest.queuedAt : 0;
    if (waited > this.options.timeoutMs / 2)
      return `the preparation threads are stalled: a request has waited ${Math.round(waited)} ms for one of ${this.lanes.length} (--prepare-timeout-ms ${this.options.timeoutMs})`;
    return undefined;
  }

  async close(): Promise<void> {
    this.closed = true;
    this.stopAll('the server was shut down');
    await Promise.all(this.lanes.map((lane) => lane?.close()));
  }

  private pump(): void {
    this.lanes.forEach((lane, index) => {
      if (!lane || lane.runningSince !== undefined || this.queue.length === 0) return;
      if (lane.failure) return this.replace(index);
      const job = this.queue.shift()!;
      clearTimeout(job.timer);
      lane
        .run(job.message, job.transfer)
        .then(job.resolve, job.reject)
        .finally(() => {
          if (lane.failure) this.replace(index);
          else this.pump();
        });
    });
  }

  /** A thread stopped at a deadline or lost to a crash: a fresh one takes its place. */
  private replace(index: number): void {
    if (this.closed || this.lanes[index] === undefined) return;
    const old = this.lanes[index]!;
    this.lanes[index] = undefined;
    void old.close();
    PrepareLane.start(this.setup).then(
      (lane) => {
        if (this.closed) return void lane.close();
        this.lanes[index] = lane;
        this.stopped = undefined;
        this.pump();
      },
      (error: Error) => {
        // Nothing else can take this lane's place; the pool runs on with the rest, if any are left.
        if (this.lanes.every((l) => l === undefined)) this.stopAll(error.message);
      },
    );
  }

  private stopAll(reason: string): void {
    this.stopped ??= reason;
    for (const job of this.queue.splice(0)) {
      clearTimeout(job.timer);
      job.reject(new PrepareStoppedError(reason));
    }
  }
}
