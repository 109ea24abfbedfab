import type { Transferable } from 'node:worker_threads';
import { compiledWorkerFile } from '../engine/worker-file.js';
import { WorkerCalls } from '../engine/worker-calls.js';
import type { CompileBudget } from '../generate/compile-budget.js';
import type { TokenizerFiles } from '../model/tokenizer.js';
import { BadRequestError } from './http-errors.js';

/** What every preparation thread is started with. */
export interface LaneSetup {
  /** The model folder (it names files in errors; it may be gone by the time a thread restarts). */
  dir: string;
  /** The tokenizer files' text, read once at start. */
  files: TokenizerFiles;
  budget: CompileBudget;
  /** How long one call may run before its thread is stopped and the call refused. */
  timeoutMs: number;
}

/** A call that ran past its deadline: what it asked for costs more than this server spends on one input. */
export class PrepareTimeoutError extends BadRequestError {
  constructor(timeoutMs: number) {
    super(
      `preparing this request took longer than ${timeoutMs} ms (this server's --prepare-timeout-ms), so it was stopped; send a smaller input or a simpler structured output`,
    );
  }
}

/**
 * One preparation thread that runs one call at a time, each under a deadline. A call past its
 * deadline is refused and the thread is stopped (a synchronous tokenizer or regex compiler cannot
 * be interrupted any other way); the pool then starts a fresh one.
 */
export class PrepareLane {
  /** When the call it is running started (undefined: idle). */
  runningSince: number | undefined;

  private constructor(
    private readonly calls: WorkerCalls,
    private readonly setup: LaneSetup,
  ) {}

  static async start(setup: LaneSetup): Promise<PrepareLane> {
    const calls = new WorkerCalls(
      compiledWorkerFile('serve/prepare-worker.js'),
      { workerData: { dir: setup.dir, files: setup.files, budget: setup.budget } },
      'the preparation thread',
    );
    try {
      await calls.ready;
    } catch (error) {
      await calls.terminate();
      throw error;
    }
    return new PrepareLane(calls, setup);
  }

  /** Why the thread can take no more calls (it crashed, was stopped at a deadline, or shut down). */
  get failure(): Error | undefined {
    return this.calls.failure;
  }

  /** Runs one call; the lane is stopped for good if the call outlives its deadline. */
  async run<T>(message: object, transfer: readonly Transferable[]): Promise<T> {
    this.runningSince = performance.now();
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        reject(new PrepareTimeoutError(this.setup.timeoutMs));
        void this.calls.terminate();
      }, this.setup.timeoutMs);
    });
    try {
      return await Promise.race([this.calls.call<T>(message, transfer), deadline]);
    } catch (error) {
      const status = (error as { status?: number }).status;
      if (status !== undefined && status >= 400 && status < 500) throw new BadRequestError((error as Error).message);
      throw error;
    } finally {
      clearTimeout(timer);
      this.runningSince = undefined;
    }
  }

  async close(): Promise<void> {
    await this.calls.terminate();
  }
}
