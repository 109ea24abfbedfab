import { elementwiseOps } from './op-table-elementwise.js';
import { mathOps } from './op-table-math.js';
import { tensorOps } from './op-table-tensor.js';
import type { OpSpec } from './op-spec.js';

/**
 * The op set: one row per primitive with its validation (inputs, dtypes, ranks, attributes) and
 * shape inference. The backward rules for these ops live in one table in `backward.ts`.
 */
const rows = { ...elementwiseOps, ...mathOps, ...tensorOps } satisfies Record<string, OpSpec>;

export type OpName = keyof typeof rows;

export const opTable: Readonly<Record<OpName, OpSpec>> = rows;

export function isOpName(name: string): name is OpName {
  return Object.hasOwn(opTable, name);
}
