import { parentPort, workerData } from 'node:worker_threads';
import ort from 'onnxruntime-node';
import type { DType } from '../engine/dtype.js';
import type { HostTensor } from '../engine/host-tensor.js';
import { createSession, type ExecutionProvider } from '../engine/runtime.js';

/** The inference thread: one onnxruntime session of the cached graph, run step by step for ThreadKvRunner. */
type Call =
  | { id: number; op: 'adapter'; adapter: number; feeds: Record<string, HostTensor> }
  | { id: number; op: 'drop'; adapter: number }
  | { id: number; op: 'run'; adapter: number; feeds: Record<string, HostTensor>; lend: string[] };

interface Setup {
  bytes: Uint8Array;
  options: ort.InferenceSession.SessionOptions;
  ep: ExecutionProvider;
  name: string;
  outputs: string[];
}

const setup = workerData as Setup;
const session = await createSession(setup.bytes, setup.options, setup.ep, setup.name);
const adapters = new Map<number, Record<string, HostTensor>>();
const port = parentPort!;

const tensor = (f: HostTensor) => new ort.Tensor(f.dtype, f.data as never, [...f.dims]);

async function step(call: Extract<Call, { op: 'run' }>): Promise<void> {
  // The lent feeds go back whatever happens: the main thread's buffers live in them.
  const returned: Record<string, Float32Array> = {};
  for (const name of call.lend) returned[name] = call.feeds[name]!.data as Float32Array;
  const lentBuffers = [...new Set(Object.values(returned).map((data) => data.buffer as ArrayBuffer))];
  try {
    const adapter = adapters.get(call.adapter);
    if (!adapter) throw new Error(`adapter ${call.adapter} was never sent`);
    const feeds: Record<string, ort.Tensor> = {};
    for (const name of session.inputNames) feeds[name] = tensor(call.feeds[name] ?? adapter[name]!);
    const results = await session.run(feeds);
    const outputs: Record<string, HostTensor> = {};
    for (const name of setup.outputs)
      outputs[name] = {
        dtype: results[name]!.type as DType,
        dims: [...results[name]!.dims],
        data: results[name]!.data as never,
      };
    const outputBuffers = Object.values(outputs).map((o) => o.data.buffer as ArrayBuffer);
    port.postMessage({ id: call.id, result: { outputs, returned } }, [...new Set([...lentBuffers, ...outputBuffers])]);
  } catch (error) {
    port.postMessage(
      { id: call.id, result: { returned, error: error instanceof Error ? error.message : String(error) } },
      lentBuffers,
    );
  }
}

port.on('message', (call: Call) => {
  if (call.op === 'run') return void step(call);
  if (call.op === 'adapter') adapters.set(call.adapter, call.feeds);
  else adapters.delete(call.adapter);
  port.postMessage({ id: call.id, result: true });
});
port.postMessage({ ready: true });
