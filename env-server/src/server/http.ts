import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import {
  PayloadTooLargeError,
  SessionNotFoundError,
  UnauthorizedError,
  assertJsonTextDepth,
  type GauntletError,
} from '@gauntlet/proto';
import { abortOn } from '@gauntlet/proto/deadline';
import type { EnvService } from './env-service.js';
import type { EnvSession } from '../sessions/session.js';
import { httpErrorBody, toGauntletError } from './errors.js';
import { mcpReply, metadataDocument, openApiDocument, schemaDocument } from './describe.js';
import { isAuthorized } from './auth.js';
import { lingerAfterRefusal } from './lingering-close.js';

export const SESSION_HEADER = 'x-session-id';

/**
 * OpenEnv's HTTP routes plus stateful sessions: `/reset` answers with an `x-session-id` header,
 * and `/step` / `/state` sent with it address that session. Calls without one share a default
 * HTTP session, so plain `curl` reset-then-step works.
 */
export function buildHttpApp(service: EnvService): FastifyInstance {
  const { config } = service;
  const app = Fastify({ bodyLimit: config.bodyLimitBytes, logger: false, return503OnClosing: false });
  let defaultSession: Promise<EnvSession> | undefined;

  app.addHook('onRequest', async (request) => {
    if (request.url === '/health' || !config.bearerToken) return;
    if (!isAuthorized(request.headers.authorization, config.bearerToken)) throw new UnauthorizedError();
  });

  // Fastify's own JSON parser (prototype-poisoning checks included), behind a depth bound that a
  // linear scan enforces before anything recursive sees the body.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    try {
      assertJsonTextDepth(body as string);
    } catch (error) {
      done(error as Error, undefined);
      return;
    }
    parseJson(request, body as string, done);
  });

  app.setErrorHandler((error, request, reply) => {
    const refusal = toGauntletError(error, config);
    if (refusal instanceof PayloadTooLargeError) lingerAfterRefusal(request.raw);
    return sendError(reply, refusal, service);
  });
  app.setNotFoundHandler((request, reply) =>
    reply.code(404).send({ detail: `No route ${request.method} ${request.url}. See GET /openapi.json.` }),
  );

  /** The session a call addresses; `created` when this call opened the default one. */
  const sessionFor = async (
    request: FastifyRequest,
    create: boolean,
  ): Promise<{ session: EnvSession; created: boolean }> => {
    const id = sessionIdOf(request);
    if (id) return { session: service.sessions.get(id), created: false };
    const existing = await defaultSession?.catch(() => undefined);
    if (existing && !existing.isClosed && service.sessions.find(existing.id))
      return { session: existing, created: false };
    if (!create) {
      defaultSession = undefined;
      throw new SessionNotFoundError(
        'default',
        'No HTTP session yet: POST /reset first (or send the x-session-id header it returned)',
      );
    }
    defaultSession = service.openSession('http');
    return { session: await defaultSession, created: true };
  };

  app.get('/health', async () => ({ status: 'healthy' }));
  app.get('/metadata', async () => metadataDocument(service.registry.names()));
  app.get('/schema', async () => schemaDocument());
  app.get('/openapi.json', async () => openApiDocument());
  app.get('/tasks', async () => ({
    tasks: service.registry.list().map((t) => ({
      name: `${t.benchmark}.${t.name}`,
      description: t.description,
      max_steps: Number.isFinite(t.maxSteps) ? t.maxSteps : null,
      ...(t.flags?.length ? { flags: [...t.flags] } : {}),
    })),
  }));
  app.get('/metrics', async (_request, reply) =>
    reply.type(service.metrics.registry.contentType).send(await service.metrics.registry.metrics()),
  );
  app.post('/mcp', async (request) => mcpReply(request.body));

  app.post('/sessions', async () => ({ session_id: (await service.openSession('http')).id }));
  app.delete<{ Params: { id: string } }>('/sessions/:id', async (request) => {
    service.sessions.get(request.params.id);
    await service.sessions.close(request.params.id, 'client');
    return { closed: true };
  });

  app.post('/reset', async (request, reply) => {
    const { session, created } = await sessionFor(request, true);
    try {
      const result = await service.reset(session, withoutSessionId(request.body), cancelOnDisconnect(reply));
      reply.header(SESSION_HEADER, session.id);
      return result;
    } catch (error) {
      // A default session this reset opened holds nothing yet: it must not outlive the failure
      // (a browser context and a capacity slot until it idled out).
      if (created) {
        if (defaultSession && (await defaultSession.catch(() => undefined)) === session) defaultSession = undefined;
        await service.close(session, 'client');
      } else reply.header(SESSION_HEADER, session.id);
      throw error;
    }
  });
  app.post('/step', async (request, reply) => {
    const { session } = await sessionFor(request, false);
    reply.header(SESSION_HEADER, session.id);
    return service.step(session, withoutSessionId(request.body), cancelOnDisconnect(reply));
  });
  // Long poll: answers when the person acted, or after wait_s with `step: null`.
  app.post('/record', async (request, reply) => {
    const { session } = await sessionFor(request, false);
    reply.header(SESSION_HEADER, session.id);
    return service.record(session, withoutSessionId(request.body), cancelOnDisconnect(reply));
  });
  app.get('/state', async (request, reply) => {
    const { session } = await sessionFor(request, false);
    reply.header(SESSION_HEADER, session.id);
    return service.state(session);
  });

  return app;
}

function sendError(reply: FastifyReply, error: GauntletError, service: EnvService): FastifyReply {
  service.metrics.countError(error);
  const { status, body } = httpErrorBody(error);
  return reply.code(status).send(body);
}

/** Aborts when the client disconnects before its answer is written: the step or reset stops. */
function cancelOnDisconnect(reply: FastifyReply): AbortSignal {
  return abortOn(reply.raw, 'close', { when: () => !reply.raw.writableFinished });
}

function sessionIdOf(request: FastifyRequest): string | undefined {
  const header = request.headers[SESSION_HEADER];
  if (typeof header === 'string' && header) return header;
  const body = request.body as { session_id?: unknown } | undefined;
  if (body && typeof body === 'object' && typeof body.session_id === 'string') return body.session_id;
  const query = request.query as { session_id?: unknown } | undefined;
  return typeof query?.session_id === 'string' ? query.session_id : undefined;
}

function withoutSessionId(body: unknown): unknown {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return body;
  const { session_id: _ignored, ...rest } = body as Record<string, unknown>;
  return rest;
}
