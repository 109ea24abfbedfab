import type { z } from 'zod';
import { ValidationError, type ValidationIssue } from '../errors.js';

/**
 * Parses `input` with `schema` or throws a ValidationError whose issues use FastAPI's
 * `{loc, msg, type, input}` shape, so OpenEnv clients read our 422s like the reference's.
 */
export function parseOrThrow<S extends z.ZodType>(schema: S, input: unknown, where: (string | number)[] = ['body']): z.infer<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const issues: ValidationIssue[] = result.error.issues.map((issue) => ({
    loc: [...where, ...issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p))],
    msg: issue.message,
    type: issue.code,
    input: valueAt(input, issue.path),
  }));
  const summary = issues.map((i) => `${i.loc.join('.')}: ${i.msg}`).join('; ');
  throw new ValidationError(`Invalid request: ${summary}`, issues);
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let cur: unknown = input;
  for (const key of path) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<PropertyKey, unknown>)[key];
  }
  return cur;
}
