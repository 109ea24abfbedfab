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

export function fromStruct(struct: StructOut | null | undefined): Record<string, unknown> {
  const object: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(struct?.fields ?? {})) object[key] = fromValue(value);
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
      if (Array.isArray(value)) return { listValue: { values: value.map((item) => toValue(item === undefined ? null : item)) } };
      return { structValue: toStruct(value as Record<string, unknown>) };
    default:
      // Functions, symbols and bigints have no JSON form either; JSON.stringify would drop them too.
      return { nullValue: 0 };
  }
}

function fromValue(value: ValueOut): unknown {
  switch (value.kind) {
    case 'stringValue':
      return value.stringValue;
    case 'numberValue':
      return value.numberValue;
    case 'boolValue':
      return value.boolValue;
    case 'structValue':
      return fromStruct(value.structValue);
    case 'listValue':
      return (value.listValue?.values ?? []).map(fromValue);
    default:
      return null;
  }
}
