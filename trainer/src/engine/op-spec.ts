import type { DType } from './dtype.js';
import type { HostTensor } from './host-tensor.js';
import type { Dim, Shape } from './shape.js';

/** Attribute values: plain numbers are ONNX ints; floats and tensors are wrapped so the kind is never guessed. */
export type AttrValue =
  number | readonly number[] | string | { readonly float: number } | { readonly tensor: HostTensor };
export type NodeAttrs = Readonly<Record<string, AttrValue>>;

export interface InputSpec {
  readonly name: string;
  readonly types: readonly DType[];
  /** Exact rank, or an inclusive [min, max] range. */
  readonly rank?: number | readonly [number, number];
  /** Index of an earlier input whose dtype this one must equal. */
  readonly sameTypeAs?: number;
  readonly optional?: boolean;
  /** Its values must be known when the graph is built (axes, shapes): they decide output shapes. */
  readonly constant?: boolean;
}

export interface AttrSpec {
  readonly kind: 'int' | 'ints' | 'float' | 'string' | 'tensor';
  readonly required?: boolean;
}

export interface TensorInfo {
  readonly name: string;
  readonly dtype: DType;
  readonly shape: Shape;
  /** Known values of small build-time constants (axes, shapes). */
  readonly value?: readonly number[];
}

export interface OutputInfo {
  readonly dtype: DType;
  readonly shape: readonly Dim[];
  readonly value?: readonly number[];
}

export interface InferContext {
  readonly inputs: readonly (TensorInfo | undefined)[];
  readonly attrs: NodeAttrs;
  /** Output count asked for by the builder (ops with a variable number of outputs). */
  readonly outputCount: number;
  /** Output shapes the builder supplies when they depend on runtime values (e.g. Reshape to Shape(x)). */
  readonly hint?: readonly Shape[];
  input(i: number): TensorInfo;
  int(name: string, fallback?: number): number;
  ints(name: string, fallback?: readonly number[]): readonly number[];
}

export interface OpSpec {
  readonly inputs: readonly InputSpec[];
  /** The last input spec may repeat (Concat). */
  readonly variadic?: boolean;
  readonly attrs?: Readonly<Record<string, AttrSpec>>;
  /** ONNX op type when it differs from the engine's name (StopGradient runs as Identity). */
  readonly onnxOp?: string;
  readonly infer: (ctx: InferContext) => readonly OutputInfo[];
}
