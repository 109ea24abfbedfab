import type { Transferable } from 'node:worker_threads';
import { compiledWorkerFile } from '../engine/worker-file.js';
import { WorkerCalls } from '../engine/worker-calls.js';
import type { CompiledSpec, StructuredSpec } from '../generate/structured.js';
import { BadRequestError } from './http-errors.js';

/**
 * The server's preparation thread (prepare-worker.ts): tokenizing large inputs and compiling
 * structured outputs, each of which can take seconds, happen there so the event loop keeps
 * answering. One thread; calls queue in order. Errors the caller caused come back as 400s.
 */
export class PrepareThread {
  private constructor(private readonly calls: WorkerCalls) {}

  /** Starts the thread on the model folder's tokenizer files (read once, at start). */
  static async start(modelDir: string): Promise<PrepareThread> {
    const calls = new WorkerCalls(
      compiledWorkerFile('serve/prepare-worker.js'),
      { workerData: { dir: modelDir } },
      'the preparation thread',
    );
    try {
      await calls.ready;
    } catch (error) {
      await calls.terminate();
      throw error;
    }
    return new PrepareThread(calls);
  }

  async call<T>(message: object, transfer: readonly Transferable[] = []): Promise<T> {
    try {
      return await this.calls.call<T>(message, transfer);
    } catch (error) {
      const status = (error as { status?: number }).status;
      if (status !== undefined && status >= 400 && status < 500) throw new BadRequestError((error as Error).message);
      throw error;
    }
  }

  /** A request body's bytes decoded, depth-checked and parsed (they move to the thread). */
  parseJson(bytes: Uint8Array): Promise<unknown> {
    // Socket chunks may share a pooled buffer: a copy of its own can be handed over.
    const own = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes : bytes.slice();
    return this.call<unknown>({ op: 'json', bytes: own }, [own.buffer as ArrayBuffer]);
  }

  /** A structured-output spec checked and compiled to its automaton. */
  compile(spec: StructuredSpec): Promise<CompiledSpec> {
    return this.call<CompiledSpec>({ op: 'structured', spec });
  }

  async close(): Promise<void> {
    await this.calls.terminate();
  }
}
