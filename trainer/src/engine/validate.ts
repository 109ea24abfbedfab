import { GraphError, ShapeError } from './errors.js';
import type { AttrSpec, AttrValue, InferContext, NodeAttrs, OpSpec, TensorInfo } from './op-spec.js';
import type { Shape } from './shape.js';

/**
 * Checks a node against its op's row in the table: input count, each input's dtype and rank,
 * build-time constants, attribute names and kinds. Errors name the node, the op and the input.
 */
export function checkNode(
  name: string,
  op: string,
  spec: OpSpec,
  inputs: readonly (TensorInfo | undefined)[],
  attrs: NodeAttrs,
): void {
  const fail = (detail: string): never => {
    throw new GraphError(name, op, detail);
  };
  const required = spec.inputs.filter((s) => !s.optional).length;
  const max = spec.variadic ? Infinity : spec.inputs.length;
  if (inputs.length < required || inputs.length > max) {
    const want = spec.variadic ? `at least ${required}` : required === max ? `${max}` : `${required} to ${max}`;
    fail(`expects ${want} inputs (${spec.inputs.map((s) => s.name).join(', ')}), got ${inputs.length}`);
  }
  inputs.forEach((t, i) => {
    const s = spec.inputs[Math.min(i, spec.inputs.length - 1)]!;
    const label = `input ${i} (${s.name})`;
    if (!t) {
      if (!s.optional) fail(`${label} is required`);
      return;
    }
    if (!s.types.includes(t.dtype)) fail(`${label} ${describe(t)} must be one of ${s.types.join('|')}`);
    if (s.sameTypeAs !== undefined) {
      const other = inputs[s.sameTypeAs];
      if (other && other.dtype !== t.dtype)
        fail(`${label} ${describe(t)} must have the dtype of input ${s.sameTypeAs} (${other.dtype})`);
    }
    if (s.rank !== undefined) {
      const [lo, hi] = typeof s.rank === 'number' ? [s.rank, s.rank] : s.rank;
      if (t.shape.length < lo || t.shape.length > hi)
        fail(`${label} ${describe(t)} must have rank ${lo === hi ? lo : `${lo}..${hi}`}, got ${t.shape.length}`);
    }
    if (s.constant && t.value === undefined) fail(`${label} ${describe(t)} must be a build-time constant`);
  });
  const known = spec.attrs ?? {};
  for (const [key, value] of Object.entries(attrs)) {
    const a = known[key];
    if (!a) fail(`unknown attribute '${key}' (known: ${Object.keys(known).join(', ') || 'none'})`);
    else if (!attrMatches(a, value)) fail(`attribute '${key}' must be ${a.kind}, got ${JSON.stringify(value)}`);
  }
  for (const [key, a] of Object.entries(known)) {
    if (a.required && !(key in attrs)) fail(`attribute '${key}' is required`);
  }
}

function describe(t: TensorInfo): string {
  return `'${t.name}' ${t.dtype}[${t.shape.join(', ')}]`;
}

function attrMatches(spec: AttrSpec, v: AttrValue): boolean {
  switch (spec.kind) {
    case 'int':
      return typeof v === 'number' && Number.isInteger(v);
    case 'ints':
      return Array.isArray(v) && v.every((x) => Number.isInteger(x));
    case 'float':
      return typeof v === 'object' && v !== null && 'float' in v && Number.isFinite(v.float);
    case 'string':
      return typeof v === 'string';
    case 'tensor':
      return typeof v === 'object' && v !== null && 'tensor' in v;
  }
}

export function inferContext(
  inputs: readonly (TensorInfo | undefined)[],
  attrs: NodeAttrs,
  options: { outputs?: number; hint?: readonly Shape[] },
): InferContext {
  return {
    inputs,
    attrs,
    outputCount: options.outputs ?? 1,
    ...(options.hint ? { hint: options.hint } : {}),
    input(i) {
      const t = inputs[i];
      if (!t) throw new ShapeError(`input ${i} is missing`);
      return t;
    },
    int(key, fallback) {
      const v = attrs[key] ?? fallback;
      if (typeof v !== 'number') throw new ShapeError(`attribute '${key}' is required`);
      return v;
    },
    ints(key, fallback) {
      const v = attrs[key] ?? fallback;
      if (!Array.isArray(v)) throw new ShapeError(`attribute '${key}' is required`);
      return v as readonly number[];
    },
  };
}
