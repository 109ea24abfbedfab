import onnxProto from 'onnx-proto';
import { onnxTypeCode } from './dtype.js';
import { EngineError } from './errors.js';
import type { Graph, Node, Tensor } from './graph.js';
import type { HostTensor } from './host-tensor.js';
import type { AttrValue } from './op-spec.js';
import { opTable } from './op-table.js';

const { onnx } = onnxProto;

/** The opset every node is written for (ReduceMean/Max take axes as inputs, Split takes num_outputs). */
export const OPSET = 18;

/** Nodes the outputs need, in order: gradients for tensors nobody asked for are dropped here. */
export function liveNodes(graph: Graph): Node[] {
  const needed = new Set(graph.outputs.map((t) => t.name));
  const live: Node[] = [];
  for (let i = graph.nodes.length - 1; i >= 0; i--) {
    const node = graph.nodes[i]!;
    if (!node.outputs.some((t) => needed.has(t.name))) continue;
    live.push(node);
    for (const t of node.inputs) if (t) needed.add(t.name);
  }
  return live.reverse();
}

/** Encodes the graph as an ONNX model: live nodes, the initializers they use, declared inputs and outputs. */
export function toModelBytes(graph: Graph): Uint8Array {
  if (graph.outputs.length === 0) throw new EngineError(`graph '${graph.name}' has no outputs`);
  const nodes = liveNodes(graph);
  const used = new Set(nodes.flatMap((n) => n.inputs.map((t) => t?.name)));
  for (const t of graph.outputs) used.add(t.name);
  const initializer = [...graph.initializers]
    .filter(([name]) => used.has(name))
    .map(([name, t]) => tensorProto(name, t));
  const model = onnx.ModelProto.create({
    irVersion: 8,
    producerName: 'gauntlet-trainer',
    opsetImport: [{ domain: '', version: OPSET }],
    graph: {
      name: graph.name,
      node: nodes.map(nodeProto),
      initializer,
      input: graph.inputs.map((t) => valueInfo(t, true)),
      output: graph.outputs.map((t) => valueInfo(t, false)),
    },
  });
  return onnx.ModelProto.encode(model).finish();
}

function valueInfo(t: Tensor, withShape: boolean): onnxProto.onnx.IValueInfoProto {
  const dim = t.shape.map((d) => (typeof d === 'number' ? { dimValue: d } : { dimParam: d }));
  return {
    name: t.name,
    type: { tensorType: { elemType: onnxTypeCode[t.dtype], ...(withShape ? { shape: { dim } } : {}) } },
  };
}

/** Raw little-endian bytes viewed over the host data, so big weights are copied once (into the encoded model). */
function tensorProto(name: string, t: HostTensor): onnxProto.onnx.ITensorProto {
  const data = t.data;
  return {
    name,
    dataType: onnxTypeCode[t.dtype],
    dims: [...t.dims],
    rawData: new Uint8Array(data.buffer, data.byteOffset, data.byteLength),
  };
}

function nodeProto(node: Node): onnxProto.onnx.INodeProto {
  return {
    name: node.name,
    opType: opTable[node.op].onnxOp ?? node.op,
    input: node.inputs.map((t) => t?.name ?? ''),
    output: node.outputs.map((t) => t.name),
    attribute: Object.entries(node.attrs).map(([key, value]) => attribute(key, value)),
  };
}

function attribute(name: string, v: AttrValue): onnxProto.onnx.IAttributeProto {
  const T = onnx.AttributeProto.AttributeType;
  if (typeof v === 'number') return { name, type: T.INT, i: v };
  if (typeof v === 'string') return { name, type: T.STRING, s: new TextEncoder().encode(v) };
  if ('float' in v) return { name, type: T.FLOAT, f: v.float };
  if ('tensor' in v) return { name, type: T.TENSOR, t: tensorProto(name, v.tensor) };
  return { name, type: T.INTS, ints: [...v] };
}
