import type { Transferable } from 'node:worker_threads';
import { RuntimeError } from '../engine/errors.js';
import { checkFeeds } from '../engine/feeds.js';
import type { Graph, Tensor } from '../engine/graph.js';
import type { HostTensor } from '../engine/host-tensor.js';
import { sessionOptions, type RunOptions, type RuntimeOptions } from '../engine/runtime.js';
import { toModelBytes } from '../engine/serialize.js';
import { WorkerCalls } from '../engine/worker-calls.js';
import { compiledWorkerFile } from '../engine/worker-file.js';
import type { KvRunner, KvStepResult } from './kv-runner.js';

/** What the inference thread answers to a step (see kv-worker.ts). */
interface StepReply {
  outputs?: Record<string, HostTensor>;
  returned: Record<string, Float32Array>;
  error?: string;
}

/**
 * The cached graph on an onnxruntime session of its own thread. onnxruntime-node runs a session
 * synchronously on the calling thread, so on the server's event loop a long prefill would hold
 * every other request, /health included, for its whole length. Here the event loop only posts
 * the step and waits.
 *
 * Nothing large is copied per step. The past keys and values are lent: their buffers move to the
 * thread for the step and come back with the outputs (onnxruntime-node does not take shared
 * memory). Adapter feeds are sent once per adapter object and kept by the thread until that object
 * is collected here.
 */
export class ThreadKvRunner implements KvRunner {
  private readonly adapterIds = new WeakMap<object, number>();
  private nextAdapter = 0;
  private readonly forget = new FinalizationRegistry<number>(
    (adapter) => void this.calls.call({ op: 'drop', adapter }).catch(() => {}),
  );

  private constructor(
    private readonly calls: WorkerCalls,
    private readonly inputs: readonly Tensor[],
  ) {}

  static async create(graph: Graph, options: RuntimeOptions = {}): Promise<ThreadKvRunner> {
    const bytes = toModelBytes(graph);
    const workerData = {
      bytes,
      options: sessionOptions(graph, options),
      ep: options.executionProvider ?? 'cpu',
      name: graph.name,
      outputs: graph.outputs.map((t) => t.name),
    };
    const calls = new WorkerCalls(
      compiledWorkerFile('generate/kv-worker.js'),
      { workerData, transferList: [bytes.buffer as ArrayBuffer] },
      'the inference thread',
    );
    try {
      await calls.ready;
    } catch (error) {
      await calls.terminate();
      throw new RuntimeError(`the inference thread did not start: ${(error as Error).message}`);
    }
    return new ThreadKvRunner(calls, graph.inputs);
  }

  get failure(): Error | undefined {
    return this.calls.failure;
  }

  async run(
    adapter: Record<string, HostTensor>,
    feeds: Record<string, HostTensor>,
    lend: readonly string[],
    options: RunOptions = {},
  ): Promise<KvStepResult> {
    options.signal?.throwIfAborted();
    checkFeeds(this.inputs, { ...adapter, ...feeds });
    const transfer = [...new Set(lend.map((name) => feeds[name]!.data.buffer as ArrayBuffer))];
    const reply = await this.calls.call<StepReply>(
      { op: 'run', adapter: this.adapterId(adapter), feeds, lend },
      transfer as Transferable[],
    );
    if (reply.error !== undefined) throw new RuntimeError(`run failed: ${reply.error}`);
    options.signal?.throwIfAborted();
    return { outputs: reply.outputs!, returned: reply.returned };
  }

  async release(): Promise<void> {
    await this.calls.terminate();
  }

  /** The thread's id for these adapter feeds, sending them first if it has not got them. */
  private adapterId(adapter: Record<string, HostTensor>): number {
    let id = this.adapterIds.get(adapter);
    if (id === undefined) {
      id = this.nextAdapter++;
      this.adapterIds.set(adapter, id);
      this.forget.register(adapter, id);
      // Messages arrive in order, so the step posted next finds them; a failure shows in that step.
      void this.calls.call({ op: 'adapter', adapter: id, feeds: adapter }).catch(() => {});
    }
    return id;
  }
}
