import type { DType } from './dtype.js';
import { ALL_TYPES, FLOAT_TYPES, NUMERIC_TYPES } from './dtype.js';
import type { OpSpec } from './op-spec.js';
import { broadcastShapes } from './shape.js';

/** Elementwise rows of the op table: unary ops keep the shape, binary ops broadcast. */

const unary = (types: readonly DType[], onnxOp?: string): OpSpec => ({
  inputs: [{ name: 'X', types }],
  ...(onnxOp ? { onnxOp } : {}),
  infer: (c) => [
    {
      dtype: c.input(0).dtype,
      shape: c.input(0).shape,
      ...(onnxOp === 'Identity' || !onnxOp ? valueOf(c.input(0).value) : {}),
    },
  ],
});

const valueOf = (value: readonly number[] | undefined) => (value ? { value } : {});

const binary = (types: readonly DType[], result?: 'bool'): OpSpec => ({
  inputs: [
    { name: 'A', types },
    { name: 'B', types, sameTypeAs: 0 },
  ],
  infer: (c) => [{ dtype: result ?? c.input(0).dtype, shape: broadcastShapes(c.input(0).shape, c.input(1).shape) }],
});

const BOOL: readonly DType[] = ['bool'];

export const elementwiseOps = {
  Add: binary(NUMERIC_TYPES),
  Sub: binary(NUMERIC_TYPES),
  Mul: binary(NUMERIC_TYPES),
  Div: binary(NUMERIC_TYPES),
  Pow: binary(FLOAT_TYPES),
  Max: binary(NUMERIC_TYPES),
  Min: binary(NUMERIC_TYPES),
  Equal: binary(ALL_TYPES, 'bool'),
  Less: binary(NUMERIC_TYPES, 'bool'),
  LessOrEqual: binary(NUMERIC_TYPES, 'bool'),
  Greater: binary(NUMERIC_TYPES, 'bool'),
  GreaterOrEqual: binary(NUMERIC_TYPES, 'bool'),
  And: binary(BOOL, 'bool'),
  Or: binary(BOOL, 'bool'),
  Not: unary(BOOL),
  Neg: unary(NUMERIC_TYPES),
  Abs: unary(NUMERIC_TYPES),
  Exp: unary(FLOAT_TYPES),
  Log: unary(FLOAT_TYPES),
  Sqrt: unary(FLOAT_TYPES),
  Reciprocal: unary(FLOAT_TYPES),
  Sigmoid: unary(FLOAT_TYPES),
  Tanh: unary(FLOAT_TYPES),
  Sin: unary(FLOAT_TYPES),
  Cos: unary(FLOAT_TYPES),
  Identity: unary(ALL_TYPES, 'Identity'),
  /** Identity that autodiff does not look through: its output is a constant to the backward pass. */
  StopGradient: unary(ALL_TYPES, 'Identity'),
  Where: {
    inputs: [
      { name: 'condition', types: BOOL },
      { name: 'X', types: ALL_TYPES },
      { name: 'Y', types: ALL_TYPES, sameTypeAs: 1 },
    ],
    infer: (c) => [
      { dtype: c.input(1).dtype, shape: broadcastShapes(c.input(0).shape, c.input(1).shape, c.input(2).shape) },
    ],
  },
} satisfies Record<string, OpSpec>;
