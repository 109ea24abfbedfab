import { listen, type RunningServer } from '../../src/serve/app.js';
import type { ServeContext } from '../../src/serve/context.js';
import { createServeContext, type ServeOptions } from '../../src/serve/create.js';

/** The built-in tiny model behind a real HTTP server on a free port; `logged` holds what the server logged. */
export async function startTinyServer(
  options: ServeOptions = {},
): Promise<{ ctx: ServeContext; server: RunningServer; logged: string[]; stop(): Promise<void> }> {
  const logged: string[] = [];
  const ctx = await createServeContext({
    runtime: { intraOpNumThreads: 1 },
    maxBatch: 8,
    log: (line) => logged.push(line),
    ...options,
  });
  const server = await listen(ctx, 0);
  return { ctx, server, logged, stop: async () => (await server.close(), await ctx.close()) };
}

export async function post(url: string, body: unknown): Promise<{ status: number; json: any; text: string }> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, json, text };
}
