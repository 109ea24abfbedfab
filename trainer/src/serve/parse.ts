import type { z } from 'zod';
import { BadRequestError } from './http-errors.js';

/** Validates a body; the 400 names the first bad field and what was wrong with it. */
export function parseBody<S extends z.ZodType>(schema: S, body: unknown, what: string, at: string[] = []): z.infer<S> {
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const path = [...at, ...issue.path.map(String)].join('.');
  throw new BadRequestError(`invalid ${what} request: ${path ? `'${path}': ` : ''}${issue.message}`, path || null);
}
