import type { z } from 'zod';
import { ValidationError, type ValidationIssue } from '../errors.js';

/**
 * Parses `input` with `schema` or throws a ValidationError whose issues use FastAPI's
 * `{loc, msg, type, input}` shape, so OpenEnv clients read our 422s like the reference's.
 */
export function parseOrThrow<S extends z.ZodType>(
  schema: S,
  input: unknown,
  where: (string | number)[] = ['body'],
): z.infer<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const issues: ValidationIssue[] = result.error.issues.map((issue) => ({
    loc: [...where, ...issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p))],
    msg: issue.message,
    type: issue.code,
    input: preview(valueAt(input, issue.path)),
  }));
  const summary = issues.map((i) => `${i.loc.join('.')}: ${i.msg}`).join('; ');
  throw new ValidationError(`Invalid request: ${summary}`, issues);
}

const PREVIEW_STRING_CHARS = 200;
const PREVIEW_ITEMS = 20;

/**
 * The offending input as FastAPI echoes it, bounded: two levels of arrays/objects, 20 entries each,
 * strings cut at 200 characters. Rendering an error must never recurse into (or re-send) a hostile
 * input's full depth or size.
 */
function preview(value: unknown, levels = 2): unknown {
  if (typeof value === 'string')
    return value.length > PREVIEW_STRING_CHARS ? `${value.slice(0, PREVIEW_STRING_CHARS)}…` : value;
  if (value === null || typeof value !== 'object') return value;
  if (levels === 0) return Array.isArray(value) ? '[…]' : '{…}';
  if (Array.isArray(value)) return value.slice(0, PREVIEW_ITEMS).map((item: unknown) => preview(item, levels - 1));
  const entries = Object.entries(value).slice(0, PREVIEW_ITEMS);
  return Object.fromEntries(entries.map(([key, item]) => [key, preview(item, levels - 1)]));
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let cur: unknown = input;
  for (const key of path) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<PropertyKey, unknown>)[key];
  }
  return cur;
}
