import { MAX_NESTING_DEPTH, nestingTooDeep } from '../wire/depth.js';
import type { Struct, StructOut, Value, ValueOut } from './messages.js';

/**
 * JSON objects ⇄ google.protobuf.Struct, for the open-ended parts of the wire (metadata, info,
 * task options). Keys holding `undefined` are dropped, as JSON.stringify drops them.
 */
export function toStruct(object: Record<string, unknown>): Struct {
  const fields: Record<string, Value> = {};
  for (const [key, value] of Object.entries(object)) {
    if (value !== undefined) fields[key] = toValue(value);
  }
  return { fields };
}

/** Decoded Structs come from the network: nesting past MAX_NESTING_DEPTH is refused, not recursed into. */
export function fromStruct(struct: StructOut | null | undefined, depth = 1): Record<string, unknown> {
  if (depth > MAX_NESTING_DEPTH) throw nestingTooDeep();
  const object: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(struct?.fields ?? {})) object[key] = fromValue(value, depth);
  return object;
}

function toValue(value: unknown): Value {
  switch (typeof value) {
    case 'string':
      return { stringValue: value };
    case 'number':
      return { numberValue: value };
    case 'boolean':
      return { boolValue: value };
    case 'object':
      // Enum numbers, not names: messages are encoded as they are (see codec.ts).
      if (value === null) return { nullValue: 0 };
      if (Array.isArray(value))
        return { listValue: { values: value.map((item) => toValue(item === undefined ? null : item)) } };
      return { structValue: toStruct(value as Record<string, unknown>) };
    default:
      // Functions, symbols and bigints have no JSON form either; JSON.stringify would drop them too.
      return { nullValue: 0 };
  }
}

function fromValue(value: ValueOut, depth: number): unknown {
  switch (value.kind) {
    case 'stringValue':
      return value.stringValue;
    case 'numberValue':
      return value.numberValue;
    case 'boolValue':
      return value.boolValue;
    case 'structValue':
      return fromStruct(value.structValue, depth + 1);
    case 'listValue':
      if (depth + 1 > MAX_NESTING_DEPTH) throw nestingTooDeep();
      return (value.listValue?.values ?? []).map((item) => fromValue(item, depth + 1));
    default:
      return null;
  }
}
