import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import ort from 'onnxruntime-node';
import type { DType } from './dtype.js';
import { RuntimeError } from './errors.js';
import { checkFeeds } from './feeds.js';
import type { Graph, Tensor } from './graph.js';
import type { HostTensor } from './host-tensor.js';
import { toModelBytes } from './serialize.js';

export type ExecutionProvider = 'cpu' | 'cuda';

export interface RuntimeOptions {
  /** `cpu` (default) or `cuda` (needs onnxruntime-node's CUDA binaries, fetched by its install script). */
  executionProvider?: ExecutionProvider;
  /** Threads inside one op (onnxruntime's default: one per core). */
  intraOpNumThreads?: number;
  interOpNumThreads?: number;
  optimization?: 'disabled' | 'basic' | 'extended' | 'all';
}

export interface RunOptions {
  signal?: AbortSignal;
}

/**
 * One onnxruntime session for one graph, created once and reused. Frozen weights are initializers
 * inside the model, so they cross into the runtime once, at creation; per-call feeds carry only
 * the small things (token ids, masks, LoRA adapters), and are checked against the graph's inputs.
 */
export class Runtime {
  private constructor(
    private readonly session: ort.InferenceSession,
    readonly inputs: readonly Tensor[],
    readonly outputNames: readonly string[],
    readonly executionProvider: ExecutionProvider,
  ) {}

  static async create(graph: Graph, options: RuntimeOptions = {}): Promise<Runtime> {
    const ep = options.executionProvider ?? 'cpu';
    const session = await createSession(toModelBytes(graph), sessionOptions(graph, options), ep, graph.name);
    return new Runtime(
      session,
      graph.inputs,
      graph.outputs.map((t) => t.name),
      ep,
    );
  }

  /** Runs the graph. Feeds for inputs the outputs do not need are accepted and ignored. */
  async run(
    feeds: Readonly<Record<string, HostTensor>>,
    options: RunOptions = {},
  ): Promise<Record<string, HostTensor>> {
    options.signal?.throwIfAborted();
    checkFeeds(this.inputs, feeds);
    const ortFeeds: Record<string, ort.Tensor> = {};
    for (const name of this.session.inputNames) {
      const f = feeds[name]!;
      ortFeeds[name] = new ort.Tensor(f.dtype, f.data as never, [...f.dims]);
    }
    let results: ort.InferenceSession.ReturnType;
    try {
      results = await this.session.run(ortFeeds);
    } catch (err) {
      throw new RuntimeError(`run failed: ${err instanceof Error ? err.message : String(err)}`);
    }
    options.signal?.throwIfAborted();
    const out: Record<string, HostTensor> = {};
    for (const name of this.outputNames) {
      const t = results[name]!;
      out[name] = { dtype: t.type as DType, dims: [...t.dims], data: t.data as never };
    }
    return out;
  }

  async release(): Promise<void> {
    await this.session.release();
  }
}

/** onnxruntime's session options for a graph: the execution provider, threads and optimization level. */
export function sessionOptions(graph: Graph, options: RuntimeOptions = {}): ort.InferenceSession.SessionOptions {
  const ep = options.executionProvider ?? 'cpu';
  if (ep !== 'cpu' && ep !== 'cuda')
    throw new RuntimeError(`executionProvider must be 'cpu' or 'cuda', got ${JSON.stringify(ep)}`);
  return {
    executionProviders: [ep],
    graphOptimizationLevel: options.optimization ?? defaultOptimization(graph),
    ...(options.intraOpNumThreads ? { intraOpNumThreads: options.intraOpNumThreads } : {}),
    ...(options.interOpNumThreads ? { interOpNumThreads: options.interOpNumThreads } : {}),
  };
}

/** A session from model bytes, with one clear error when onnxruntime (or its CUDA provider) refuses. */
export async function createSession(
  bytes: Uint8Array,
  options: ort.InferenceSession.SessionOptions,
  ep: ExecutionProvider,
  name: string,
): Promise<ort.InferenceSession> {
  if (ep === 'cuda') assertCudaInstalled();
  try {
    return await ort.InferenceSession.create(bytes, options);
  } catch (err) {
    const detail = err instanceof Error ? err.message : String(err);
    if (ep === 'cuda')
      throw new RuntimeError(
        `execution provider 'cuda' is unavailable (${detail}); run on 'cpu' or install onnxruntime-node's CUDA binaries`,
      );
    throw new RuntimeError(`onnxruntime refused graph '${name}': ${detail}`);
  }
}

/**
 * onnxruntime-node ships its CUDA provider library only when its install script ran; checking for
 * the file gives one clear message instead of onnxruntime's loader noise.
 */
function assertCudaInstalled(): void {
  const binding = dirname(createRequire(import.meta.url).resolve('onnxruntime-node'));
  const library = join(
    binding,
    '..',
    'bin',
    'napi-v6',
    process.platform,
    process.arch,
    'libonnxruntime_providers_cuda.so',
  );
  if (!existsSync(library)) {
    throw new RuntimeError(
      `execution provider 'cuda' is unavailable: ${library} is missing (onnxruntime-node installs it from its install script); run on 'cpu'`,
    );
  }
}

/**
 * onnxruntime's extended fusions rewrite patterns into contrib ops (x·sigmoid(x) → QuickGelu, …)
 * that have float32 kernels only, so float64 graphs — the gradient checks — stop at 'basic'.
 */
function defaultOptimization(graph: Graph): 'basic' | 'all' {
  const float64 =
    graph.inputs.some((t) => t.dtype === 'float64') ||
    [...graph.initializers.values()].some((t) => t.dtype === 'float64');
  return float64 ? 'basic' : 'all';
}
