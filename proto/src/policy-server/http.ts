import type { z } from 'zod';
import { CallContext } from '../client/call.js';
import { withRetry, type RetryPolicy } from '../client/retry.js';
import { PolicyReplyError, PolicyRequestError, PolicyUnavailableError } from './errors.js';
import { errorReply } from './replies.js';

export interface HttpSettings {
  base: string;
  apiKey: string | undefined;
  timeoutMs: number;
  retry: RetryPolicy;
  validateReplies: boolean;
}

export interface Exchange<S extends z.ZodType> {
  method: 'GET' | 'POST';
  path: string;
  body?: unknown;
  reply: S;
  /** What the call is, for messages: "completion", "tokenize", … */
  what: string;
  signal?: AbortSignal | undefined;
  timeoutMs?: number | undefined;
}

/**
 * One JSON call under one deadline (all tries included): connection errors and 5xx are retried
 * with exponential backoff, 4xx fail at once, and a 2xx reply is checked against its schema.
 */
export async function exchange<S extends z.ZodType>(http: HttpSettings, request: Exchange<S>): Promise<z.infer<S>> {
  const call = new CallContext(`policy ${request.what}`, request, http.timeoutMs);
  try {
    return await withRetry(http.retry, call, () => call.race(once(http, request, call)));
  } finally {
    call.dispose();
  }
}

async function once<S extends z.ZodType>(
  http: HttpSettings,
  request: Exchange<S>,
  call: CallContext,
): Promise<z.infer<S>> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (request.body !== undefined) headers['content-type'] = 'application/json';
  if (http.apiKey) headers.authorization = `Bearer ${http.apiKey}`;
  const url = http.base + request.path;
  let text: string;
  let status: number;
  try {
    const response = await fetch(url, {
      method: request.method,
      headers,
      signal: call.signal,
      ...(request.body === undefined ? {} : { body: JSON.stringify(request.body) }),
    });
    status = response.status;
    text = await response.text();
  } catch (error) {
    if (call.signal.aborted) throw call.signal.reason;
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    throw new PolicyUnavailableError(
      `policy server unreachable at ${http.base}: ${cause?.code ?? cause?.message ?? (error as Error).message}`,
      0,
    );
  }
  if (status >= 500)
    throw new PolicyUnavailableError(
      `policy server ${http.base} answered ${request.what} with ${status}: ${errorMessage(text)}`,
      status,
    );
  if (status >= 400) {
    const { message, param } = errorDetails(text);
    throw new PolicyRequestError(
      `policy server refused the ${request.what} request (${status}): ${message}`,
      status,
      param,
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new PolicyReplyError(
      `policy server ${http.base} answered ${request.what} with a body that is not JSON: ${clip(text)}`,
    );
  }
  if (!http.validateReplies) return json as z.infer<S>;
  const parsed = request.reply.safeParse(json);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  throw new PolicyReplyError(
    `policy server ${http.base} answered ${request.what} with an unexpected reply: ${issue.path.join('.') || '(root)'}: ${issue.message}`,
  );
}

function errorDetails(text: string): { message: string; param: string | null } {
  try {
    const parsed = errorReply.safeParse(JSON.parse(text));
    if (parsed.success) {
      const body = ('error' in parsed.data ? parsed.data.error : parsed.data) as { message: string; param?: unknown };
      return { message: body.message, param: typeof body.param === 'string' ? body.param : null };
    }
  } catch {
    // Not JSON: the text itself is the message (proxies answer in HTML or plain text).
  }
  return { message: clip(text) || '(empty body)', param: null };
}

function errorMessage(text: string): string {
  return errorDetails(text).message;
}

function clip(text: string, max = 200): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}
