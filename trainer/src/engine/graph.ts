import type { DType } from './dtype.js';
import { typedArrayFrom } from './dtype.js';
import { EngineError, GraphError, ShapeError } from './errors.js';
import type { HostTensor } from './host-tensor.js';
import { elementCount, hostTensor } from './host-tensor.js';
import type { NodeAttrs, OutputInfo, TensorInfo } from './op-spec.js';
import type { OpName } from './op-table.js';
import { opTable } from './op-table.js';
import { checkNode, inferContext } from './validate.js';
import type { Shape } from './shape.js';
import { formatShape } from './shape.js';

/** A value in a graph: typed, shaped (dims may be symbols), produced by a node or fed from outside. */
export class Tensor implements TensorInfo {
  constructor(
    readonly graph: Graph,
    readonly name: string,
    readonly dtype: DType,
    readonly shape: Shape,
    readonly producer?: Node,
    readonly value?: readonly number[],
  ) {}

  get rank(): number {
    return this.shape.length;
  }

  toString(): string {
    return `'${this.name}' ${this.dtype}${formatShape(this.shape)}`;
  }
}

export interface Node {
  readonly name: string;
  readonly op: OpName;
  readonly inputs: readonly (Tensor | undefined)[];
  readonly outputs: readonly Tensor[];
  readonly attrs: NodeAttrs;
}

export interface NodeOptions {
  outputs?: number;
  hint?: readonly Shape[];
  /** Names for the outputs instead of the node-derived ones (graph outputs fetched by name). */
  outputNames?: readonly string[];
}

/**
 * An ONNX graph under construction. Nodes are appended in topological order, each checked
 * against the op table when added, so a bad node is reported by name before any runtime sees it.
 */
export class Graph {
  readonly nodes: Node[] = [];
  readonly inputs: Tensor[] = [];
  readonly outputs: Tensor[] = [];
  readonly initializers = new Map<string, HostTensor>();
  private readonly names = new Set<string>();
  private readonly constants = new Map<string, Tensor>();
  private readonly scopes: string[] = [];
  private counter = 0;

  constructor(readonly name = 'graph') {}

  /** A runtime input; symbolic dims (strings) are bound when fed and must agree across inputs. */
  input(name: string, dtype: DType, shape: Shape): Tensor {
    const t = new Tensor(this, this.claim(name), dtype, shape);
    this.inputs.push(t);
    return t;
  }

  /** A frozen tensor stored in the model (base weights): handed to the runtime once, at session creation. */
  weight(name: string, data: HostTensor): Tensor {
    this.initializers.set(this.claim(name), data);
    return new Tensor(this, name, data.dtype, data.dims);
  }

  /** A constant; small ones are deduplicated and keep their values for shape inference. */
  constant(values: number | readonly number[], dtype: DType, shape?: readonly number[]): Tensor {
    const list = typeof values === 'number' ? [values] : values;
    const dims = shape ?? (typeof values === 'number' ? [] : [list.length]);
    const key = list.length <= 64 ? `${dtype}|${dims.join(',')}|${list.join(',')}` : undefined;
    const cached = key === undefined ? undefined : this.constants.get(key);
    if (cached) return cached;
    if (elementCount(dims) !== list.length)
      throw new EngineError(`constant: ${list.length} values do not fill shape ${formatShape(dims)}`);
    const name = this.claim(`const_${this.counter++}`);
    this.initializers.set(name, hostTensor(dtype, dims, typedArrayFrom(dtype, list) as never, name));
    const t = new Tensor(this, name, dtype, dims, undefined, list.length <= 64 ? [...list] : undefined);
    if (key !== undefined) this.constants.set(key, t);
    return t;
  }

  /** Adds a node after validating it against the op table; returns its outputs. */
  node(
    op: OpName,
    inputs: readonly (Tensor | undefined)[],
    attrs: NodeAttrs = {},
    options: NodeOptions = {},
  ): Tensor[] {
    const name = this.claim(this.scoped(op));
    const spec = opTable[op];
    if (!spec) throw new GraphError(name, op, `unknown op (known: ${Object.keys(opTable).join(', ')})`);
    for (const [i, t] of inputs.entries()) {
      if (t && t.graph !== this)
        throw new GraphError(name, op, `input ${i} ${t} belongs to graph '${t.graph.name}', not '${this.name}'`);
    }
    checkNode(name, op, spec, inputs, attrs);
    let infos: readonly OutputInfo[];
    try {
      infos = spec.infer(inferContext(inputs, attrs, options));
    } catch (err) {
      if (err instanceof ShapeError)
        throw new GraphError(name, op, `${err.message}; inputs ${inputs.map((t) => (t ? String(t) : '∅')).join(', ')}`);
      throw err;
    }
    const outputs: Tensor[] = [];
    const node: Node = { name, op, inputs: [...inputs], outputs, attrs };
    infos.forEach((info, i) => {
      const given = options.outputNames?.[i];
      const tensorName =
        given !== undefined ? this.claim(given) : infos.length === 1 ? name : this.claim(`${name}:${i}`);
      outputs.push(new Tensor(this, tensorName, info.dtype, info.shape, node, info.value));
    });
    this.nodes.push(node);
    return outputs;
  }

  /** Marks a graph output; a new name adds an Identity so the output is fetched under that name. */
  output(t: Tensor, name?: string): Tensor {
    const out = name !== undefined && name !== t.name ? this.node('Identity', [t], {}, { outputNames: [name] })[0]! : t;
    if (this.outputs.some((o) => o.name === out.name))
      throw new EngineError(`graph output '${out.name}' is declared twice`);
    this.outputs.push(out);
    return out;
  }

  /** Names nodes built inside `fn` `<scope>/<Op>_<n>`, so errors point at a layer. */
  scope<T>(scope: string, fn: () => T): T {
    this.scopes.push(scope);
    try {
      return fn();
    } finally {
      this.scopes.pop();
    }
  }

  private scoped(op: string): string {
    const prefix = this.scopes.length ? `${this.scopes.join('/')}/` : '';
    return `${prefix}${op}_${this.counter++}`;
  }

  private claim(name: string): string {
    if (this.names.has(name)) throw new EngineError(`tensor name '${name}' is already used in graph '${this.name}'`);
    this.names.add(name);
    return name;
  }
}
