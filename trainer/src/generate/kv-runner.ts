import type { HostTensor } from '../engine/host-tensor.js';
import { Runtime, type RunOptions, type RuntimeOptions } from '../engine/runtime.js';
import type { Graph } from '../engine/graph.js';

/** One forward step's outputs, and the feeds the runner borrowed, to be used in place of the ones passed. */
export interface KvStepResult {
  outputs: Record<string, HostTensor>;
  /** For each lent feed, its data: the same memory, possibly as a new view (a thread hands buffers back). */
  returned: Record<string, Float32Array>;
}

/**
 * Runs the cached graph for KvModel, here or on a thread. `adapter` feeds are the same objects
 * step after step (a runner may keep them); `lend` names the large step feeds (the past keys and
 * values) a runner may take for the step, as long as it gives them back in `returned`.
 */
export interface KvRunner {
  run(
    adapter: Record<string, HostTensor>,
    feeds: Record<string, HostTensor>,
    lend: readonly string[],
    options?: RunOptions,
  ): Promise<KvStepResult>;
  /** A description of why the runner can no longer run, once it cannot (its thread died). */
  readonly failure: Error | undefined;
  release(): Promise<void>;
}

/** The graph on an onnxruntime session on this thread: nothing is lent, the feeds stay where they are. */
export class InlineKvRunner implements KvRunner {
  readonly failure = undefined;

  private constructor(private readonly runtime: Runtime) {}

  static async create(graph: Graph, options?: RuntimeOptions): Promise<InlineKvRunner> {
    return new InlineKvRunner(await Runtime.create(graph, options));
  }

  async run(
    adapter: Record<string, HostTensor>,
    feeds: Record<string, HostTensor>,
    lend: readonly string[],
    options: RunOptions = {},
  ): Promise<KvStepResult> {
    const outputs = await this.runtime.run({ ...adapter, ...feeds }, options);
    return { outputs, returned: Object.fromEntries(lend.map((name) => [name, feeds[name]!.data as Float32Array])) };
  }

  release(): Promise<void> {
    return this.runtime.release();
  }
}
