import { ValidationError } from '@gauntlet/proto';
import { escapeRegex } from '@gauntlet/proto/agent';

/**
 * JSON Schema → a regex whose every match is JSON text valid against the schema, so the regex
 * constraint can force schema-valid output. Covers the schemas tools and pydantic emit for
 * structured outputs: types (or lists of them), enum, const, anyOf/oneOf, single allOf, non-recursive
 * $ref into $defs/definitions, objects (properties in order, optional ones omittable), arrays
 * (items, minItems, maxItems), strings (minLength, maxLength, date/time/uuid formats) and
 * non-negative numbers. A keyword that would constrain values in a way the regex does not is
 * refused by name, rather than produce output the schema rejects. Schema-less JSON (`{}`, an
 * object without properties) nests at most GENERIC_DEPTH levels: arbitrary nesting is not regular.
 */
export function jsonSchemaRegex(schema: unknown): string {
  return new SchemaCompiler(schema).compile(schema, '#');
}

/** Nesting levels of arrays and objects allowed where a schema says nothing about the value. */
const GENERIC_DEPTH = 2;

/**
 * Schemas nested deeper than this (through properties, items, anyOf… or a chain of $refs, which
 * nests without nesting the JSON) are refused: the compiler recurses once per level.
 */
export const MAX_SCHEMA_DEPTH = 64;

const WS = '[ ]?';
const CHAR = '(?:[^"\\\\\\x00-\\x1f]|\\\\["\\\\/bfnrt]|\\\\u[0-9a-fA-F]{4})';
const STRING = `"${CHAR}*"`;
const DIGITS = '(?:0|[1-9][0-9]*)';
const FRACTION = '(?:\\.[0-9]+)?(?:[eE][+-]?[0-9]+)?';
const DATE = '[0-9]{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12][0-9]|3[01])';
const TIME = '(?:[01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9](?:\\.[0-9]+)?(?:Z|[+-](?:[01][0-9]|2[0-3]):[0-5][0-9])';
const FORMATS: Record<string, string> = {
  date: DATE,
  time: TIME,
  'date-time': `${DATE}T${TIME}`,
  uuid: '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}',
};
const TYPES = ['string', 'integer', 'number', 'boolean', 'null', 'array', 'object'] as const;
type JsonType = (typeof TYPES)[number];

/** Keywords that describe without constraining, or that the output satisfies by construction. */
const ANNOTATIONS = new Set([
  'title',
  'description',
  'default',
  'examples',
  '$schema',
  '$id',
  '$comment',
  'deprecated',
  'readOnly',
  'writeOnly',
  '$defs',
  'definitions',
  'additionalProperties',
  'strict',
]);
const HANDLED = new Set([
  'type',
  'enum',
  'const',
  'anyOf',
  'oneOf',
  'allOf',
  '$ref',
  'properties',
  'required',
  'items',
  'minItems',
  'maxItems',
  'minLength',
  'maxLength',
  'format',
  'minimum',
]);

type Schema = Record<string, unknown>;

class SchemaCompiler {
  /** $refs being expanded, to refuse recursion instead of looping. */
  private readonly expanding: string[] = [];
  private depth = 0;

  constructor(private readonly root: unknown) {}

  compile(schema: unknown, at: string): string {
    if (this.depth >= MAX_SCHEMA_DEPTH)
      throw refuse(
        at,
        `the schema nests more than ${MAX_SCHEMA_DEPTH} levels (through properties, items, anyOf, $ref…)`,
      );
    this.depth++;
    try {
      return this.compileLevel(schema, at);
    } finally {
      this.depth--;
    }
  }

  private compileLevel(schema: unknown, at: string): string {
    if (schema === true) return generic(GENERIC_DEPTH);
    if (schema === false) throw refuse(at, 'the schema `false` allows no value');
    if (!isObject(schema)) throw refuse(at, 'a schema must be an object or a boolean');
    for (const key of Object.keys(schema)) {
      if (!HANDLED.has(key) && !ANNOTATIONS.has(key))
        throw refuse(at, `the keyword "${key}" is not supported in structured outputs`);
    }
    if (schema.$ref !== undefined) return this.ref(schema.$ref, at);
    if (schema.const !== undefined) return literal(schema.const);
    if (schema.enum !== undefined) {
      if (!Array.isArray(schema.enum) || schema.enum.length === 0) throw refuse(at, '"enum" must be a non-empty array');
      return alternatives(schema.enum.map(literal));
    }
    for (const key of ['anyOf', 'oneOf'] as const) {
      const options = schema[key];
      if (options === undefined) continue;
      if (!Array.isArray(options) || options.length === 0) throw refuse(at, `"${key}" must be a non-empty array`);
      // oneOf as anyOf: a value matching two options is still a valid JSON text for the caller to read.
      return alternatives(options.map((s, i) => this.compile(s, `${at}/${key}/${i}`)));
    }
    if (schema.allOf !== undefined) {
      if (!Array.isArray(schema.allOf) || schema.allOf.length !== 1)
        throw refuse(at, '"allOf" is supported with exactly one schema');
      return this.compile(schema.allOf[0], `${at}/allOf/0`);
    }
    const types = typesOf(schema, at);
    return alternatives(types.map((type) => this.typed(type, schema, at)));
  }

  private typed(type: JsonType, schema: Schema, at: string): string {
    switch (type) {
      case 'string':
        return stringRegex(schema, at);
      case 'integer':
        return `${signOf(schema, at)}${DIGITS}`;
      case 'number':
        return `${signOf(schema, at)}${DIGITS}${FRACTION}`;
      case 'boolean':
        return '(?:true|false)';
      case 'null':
        return 'null';
      case 'array':
        return this.array(schema, at);
      case 'object':
        return this.object(schema, at);
    }
  }

  private array(schema: Schema, at: string): string {
    const min = count(schema.minItems, 'minItems', at) ?? 0;
    const max = count(schema.maxItems, 'maxItems', at);
    if (max !== undefined && max < min) throw refuse(at, '"maxItems" is below "minItems"');
    if (max === 0) return `\\[${WS}\\]`;
    const item = schema.items === undefined ? generic(GENERIC_DEPTH - 1) : this.compile(schema.items, `${at}/items`);
    const inner = `${group(item)}(?:,${WS}${group(item)}){${Math.max(min - 1, 0)},${max === undefined ? '' : max - 1}}`;
    return `\\[${WS}${min === 0 ? `(?:${inner})?` : inner}${WS}\\]`;
  }

  /** Properties in their listed order; each optional one may be left out, required ones never are. */
  private object(schema: Schema, at: string): string {
    const properties = schema.properties ?? {};
    if (!isObject(properties)) throw refuse(at, '"properties" must be an object');
    const required = schema.required ?? [];
    if (!Array.isArray(required) || !required.every((r) => typeof r === 'string'))
      throw refuse(at, '"required" must be an array of names');
    const missing = required.find((name) => !Object.hasOwn(properties, name));
    if (missing !== undefined) throw refuse(at, `"${missing}" is required but has no schema under "properties"`);
    const names = Object.keys(properties);
    if (names.length === 0)
      return schema.additionalProperties === false ? `\\{${WS}\\}` : genericObject(GENERIC_DEPTH - 1);
    const members = names.map((name) => ({
      text: `${escapeRegex(JSON.stringify(name))}${WS}:${WS}${group(this.compile(properties[name], `${at}/properties/${name}`))}`,
      required: required.includes(name),
    }));
    // One alternative per choice of the first member present: every member before it is optional.
    const shapes: string[] = [];
    for (let first = 0; first < members.length; first++) {
      const rest = members.slice(first + 1).map((m) => (m.required ? `,${WS}${m.text}` : `(?:,${WS}${m.text})?`));
      shapes.push(`${members[first]!.text}${rest.join('')}`);
      if (members[first]!.required) break;
    }
    const body = alternatives(shapes);
    return `\\{${WS}${members.every((m) => !m.required) ? `(?:${body})?` : body}${WS}\\}`;
  }

  private ref(ref: unknown, at: string): string {
    if (typeof ref !== 'string') throw refuse(at, '"$ref" must be a string');
    const match = /^#\/(\$defs|definitions)\/([^/]+)$/.exec(ref);
    if (!match)
      throw refuse(at, `"$ref": ${JSON.stringify(ref)} is not supported (only #/$defs/… and #/definitions/…)`);
    if (this.expanding.includes(ref))
      throw refuse(at, `"$ref": ${JSON.stringify(ref)} is recursive; recursive schemas are not supported`);
    const defs = isObject(this.root) ? this.root[match[1]!] : undefined;
    const target = isObject(defs) && Object.hasOwn(defs, match[2]!) ? defs[match[2]!] : undefined;
    if (target === undefined) throw refuse(at, `"$ref": ${JSON.stringify(ref)} points at nothing`);
    this.expanding.push(ref);
    try {
      return this.compile(target, ref);
    } finally {
      this.expanding.pop();
    }
  }
}

function typesOf(schema: Schema, at: string): JsonType[] {
  const declared = schema.type;
  if (declared === undefined) {
    if (schema.properties !== undefined || schema.required !== undefined) return ['object'];
    if (schema.items !== undefined || schema.minItems !== undefined || schema.maxItems !== undefined) return ['array'];
    if (schema.minLength !== undefined || schema.maxLength !== undefined || schema.format !== undefined)
      return ['string'];
    return [...TYPES];
  }
  const list = Array.isArray(declared) ? declared : [declared];
  const bad = list.find((t) => !TYPES.includes(t as JsonType));
  if (bad !== undefined || list.length === 0)
    throw refuse(at, `"type": ${JSON.stringify(bad ?? declared)} is not a JSON Schema type`);
  return list as JsonType[];
}

function stringRegex(schema: Schema, at: string): string {
  if (schema.format !== undefined) {
    const format =
      typeof schema.format === 'string' && Object.hasOwn(FORMATS, schema.format) ? FORMATS[schema.format] : undefined;
    if (!format)
      throw refuse(
        at,
        `"format": ${JSON.stringify(schema.format)} is not supported (supported: ${Object.keys(FORMATS).join(', ')})`,
      );
    return `"${format}"`;
  }
  const min = count(schema.minLength, 'minLength', at) ?? 0;
  const max = count(schema.maxLength, 'maxLength', at);
  if (max !== undefined && max < min) throw refuse(at, '"maxLength" is below "minLength"');
  return min === 0 && max === undefined ? STRING : `"${CHAR}{${min},${max ?? ''}}"`;
}

/** `minimum: 0` drops the minus sign (non-negative numbers); other bounds are refused. */
function signOf(schema: Schema, at: string): string {
  if (schema.minimum === undefined) return '-?';
  if (schema.minimum !== 0)
    throw refuse(
      at,
      `"minimum": ${JSON.stringify(schema.minimum)} is not supported (only 0, for non-negative numbers)`,
    );
  return '';
}

function count(value: unknown, key: string, at: string): number | undefined {
  if (value === undefined) return undefined;
  if (!Number.isSafeInteger(value) || (value as number) < 0)
    throw refuse(at, `"${key}" must be a non-negative integer`);
  return value as number;
}

/** Any JSON value nested at most `depth` levels. */
function generic(depth: number): string {
  const scalars = [STRING, `-?${DIGITS}${FRACTION}`, 'true', 'false', 'null'];
  return alternatives(depth > 0 ? [...scalars, genericArray(depth - 1), genericObject(depth - 1)] : scalars);
}

function genericArray(depth: number): string {
  const value = generic(depth);
  return `\\[${WS}(?:${value}(?:,${WS}${value})*)?${WS}\\]`;
}

function genericObject(depth: number): string {
  const member = `${STRING}${WS}:${WS}${generic(depth)}`;
  return `\\{${WS}(?:${member}(?:,${WS}${member})*)?${WS}\\}`;
}

function literal(value: unknown): string {
  return escapeRegex(JSON.stringify(value));
}

function alternatives(options: readonly string[]): string {
  const unique = [...new Set(options)];
  return unique.length === 1 ? unique[0]! : `(?:${unique.join('|')})`;
}

function group(regex: string): string {
  return `(?:${regex})`;
}

function isObject(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function refuse(at: string, message: string): ValidationError {
  return new ValidationError(`structured_outputs.json at ${at}: ${message}`);
}
