import type { z } from 'zod';
import { envPackageDefinition } from '../src/grpc/definition.js';

/** The parts of a zod schema this comparison needs, whatever wrappers (optional, default) sit on top. */
export type ZodKind = 'string' | 'number' | 'boolean' | 'array' | 'tuple' | 'object' | 'record' | 'unknown';

interface ZodNode {
  kind: ZodKind;
  schema: z.ZodType;
}

export function zodNode(schema: z.ZodType): ZodNode {
  let current = schema as unknown as { def: { type: string; innerType?: unknown } };
  while (['optional', 'nullable', 'default'].includes(current.def.type))
    current = current.def.innerType as typeof current;
  const type = current.def.type;
  const kind: ZodKind = type === 'enum' || type === 'literal' ? 'string' : (type as ZodKind);
  return { kind, schema: current as unknown as z.ZodType };
}

interface FieldDescriptor {
  name: string;
  label: string;
  type: string;
  typeName: string;
}
interface MessageDescriptor {
  field: FieldDescriptor[];
  nestedType: (MessageDescriptor & { name: string; options?: { mapEntry?: boolean } | null })[];
}

export function messageDescriptor(name: string): MessageDescriptor {
  const entry = envPackageDefinition()[name.includes('.') ? name : `gauntlet.env.v1.${name}`] as
    { type?: MessageDescriptor } | undefined;
  if (!entry?.type) throw new Error(`env.proto has no message ${name}`);
  return entry.type;
}

/** What a proto field is, in zod's terms: a map is a record, a repeated field an array. */
export function protoKind(message: MessageDescriptor, field: FieldDescriptor): { kind: ZodKind; element?: string } {
  if (field.label === 'LABEL_REPEATED') {
    const entry = message.nestedType.find((n) => n.name === field.typeName && n.options?.mapEntry);
    if (entry) return { kind: 'record', element: entry.field.find((f) => f.name === 'value')!.typeName };
    return { kind: 'array', element: field.typeName || field.type };
  }
  if (field.typeName === 'google.protobuf.Struct') return { kind: 'record', element: 'google.protobuf.Value' };
  if (field.type === 'TYPE_MESSAGE') return { kind: 'object', element: field.typeName };
  if (field.type === 'TYPE_STRING') return { kind: 'string' };
  if (field.type === 'TYPE_BOOL') return { kind: 'boolean' };
  if (field.type === 'TYPE_BYTES') return { kind: 'unknown' };
  return { kind: 'number' };
}
