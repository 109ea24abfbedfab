import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { GauntletError } from '@gauntlet/proto';
import { chatCompletions } from './chat.js';
import { completions } from './completions.js';
import type { ServeContext } from './context.js';
import { NotFoundError, ServiceUnavailableError } from './http-errors.js';
import { discardBody, readJsonBody, sendError, sendJson } from './http-io.js';
import { listenOn } from './listen.js';
import { metrics } from './metrics.js';
import { listModels, loadLora, unloadLora } from './models.js';
import { detokenize, tokenize } from './tokenize.js';
import { trlGenerate } from './trl.js';

type Handler = (ctx: ServeContext, body: unknown, req: IncomingMessage, res: ServerResponse) => void | Promise<void>;

const ok: Handler = (_ctx, _body, _req, res) => sendJson(res, 200, {});

/** Method + path → handler; POST bodies are read (within the size limit) before the handler runs. */
const ROUTES: Record<string, Handler> = {
  // vLLM's: an empty 200; a 503 says why (the inference thread died, the preparation threads stalled).
  'GET /health': (ctx, _body, _req, res) => {
    const problem = unhealthy(ctx);
    if (problem) sendError(res, new ServiceUnavailableError(problem));
    else res.writeHead(200).end();
  },
  'GET /health/': (ctx, _body, _req, res) => {
    const problem = unhealthy(ctx);
    sendJson(res, problem ? 503 : 200, problem ? { status: 'unavailable', reason: problem } : { status: 'ok' });
  },
  'GET /get_world_size/': (_ctx, _body, _req, res) => sendJson(res, 200, { world_size: 1 }),
  'GET /v1/models': listModels,
  'GET /metrics': metrics,
  'POST /v1/completions': completions,
  'POST /v1/chat/completions': chatCompletions,
  'POST /tokenize': tokenize,
  'POST /detokenize': detokenize,
  'POST /v1/load_lora_adapter': loadLora,
  'POST /v1/unload_lora_adapter': unloadLora,
  'POST /generate/': trlGenerate,
  // TRL's client calls these around weight syncs; with adapters as inputs there is nothing to reset.
  'POST /reset_prefix_cache/': ok,
};

/** Why this server cannot serve now, or undefined. */
function unhealthy(ctx: ServeContext): string | undefined {
  // Once the inference thread has died nothing can be generated until a restart.
  if (ctx.engine.model.failure) return `the inference thread has stopped: ${ctx.engine.model.failure.message}`;
  return ctx.prepare.health();
}

export interface RunningServer {
  server: Server;
  url: string;
  close(): Promise<void>;
}

/** The vLLM-compatible HTTP server. Every handler error becomes an OpenAI-shaped reply; none escapes. */
export function createServeApp(ctx: ServeContext): Server {
  return createServer((req, res) => {
    void handle(ctx, req, res);
  });
}

async function handle(ctx: ServeContext, req: IncomingMessage, res: ServerResponse): Promise<void> {
  try {
    const path = new URL(req.url ?? '/', 'http://local').pathname;
    const route = `${req.method} ${path}`;
    ctx.apiKeys.check(route, req);
    const handler = ROUTES[route];
    if (!handler) {
      const methods = Object.keys(ROUTES)
        .filter((k) => k.endsWith(` ${path}`))
        .map((k) => k.split(' ')[0]);
      throw new NotFoundError(
        methods.length
          ? `${req.method} is not allowed on ${path} (use ${methods.join(', ')})`
          : `no route ${req.method} ${path}`,
      );
    }
    const body =
      req.method === 'POST'
        ? await readJsonBody(req, ctx.limits.bodyBytes, (bytes) => ctx.prepare.parseJson(bytes))
        : undefined;
    await handler(ctx, body, req, res);
  } catch (error) {
    discardBody(req);
    if (!(error instanceof GauntletError))
      ctx.log(
        `${req.method} ${req.url}: unexpected error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
      );
    sendError(res, error);
  }
}

export async function listen(ctx: ServeContext, port: number, host = '127.0.0.1'): Promise<RunningServer> {
  const server = createServeApp(ctx);
  await listenOn(server, port, host);
  const { port: bound } = server.address() as AddressInfo;
  return {
    server,
    url: `http://${host}:${bound}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
