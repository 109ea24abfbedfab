import { z } from 'zod';
import {
  Action,
  Observation,
  RecordReply,
  RecordRequest,
  ResetRequest,
  State,
  StepRequest,
  StepResult,
} from '@gauntlet/proto';

export const SERVER_VERSION = '0.1.0';

export function metadataDocument(taskNames: string[]): Record<string, unknown> {
  return {
    name: 'gauntlet-env',
    description:
      'BrowserGym-compatible browser environment on Playwright/Chromium: MiniWoB-style tasks and the 30-step Gauntlet.',
    readme_content: `Tasks: ${taskNames.join(', ')}. Actions: BrowserGym high-level action strings, e.g. click('12').`,
    version: SERVER_VERSION,
    author: 'Gauntlet',
    documentation_url: null,
  };
}

const jsonSchema = (schema: z.ZodType) => z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' });

export function schemaDocument(): Record<string, unknown> {
  return { action: jsonSchema(Action), observation: jsonSchema(Observation), state: jsonSchema(State) };
}

/** A small OpenAPI 3.1 document; `info.version` must be a string for `openenv validate`. */
export function openApiDocument(): Record<string, unknown> {
  const json = (schema: z.ZodType) => ({ content: { 'application/json': { schema: jsonSchema(schema) } } });
  const result = {
    200: { description: 'observation, reward, done', ...json(StepResult) },
    422: { description: 'validation error' },
  };
  return {
    openapi: '3.1.0',
    info: {
      title: 'Gauntlet env server',
      version: '1.0.0',
      description: 'OpenEnv HTTP contract plus stateful sessions (x-session-id header).',
    },
    paths: {
      '/health': { get: { summary: 'Liveness', responses: { 200: { description: '{"status":"healthy"}' } } } },
      '/metadata': { get: { summary: 'Environment metadata', responses: { 200: { description: 'metadata' } } } },
      '/schema': {
        get: { summary: 'Action/observation/state JSON schemas', responses: { 200: { description: 'schemas' } } },
      },
      '/reset': { post: { summary: 'Start an episode', requestBody: json(ResetRequest), responses: result } },
      '/step': { post: { summary: 'Execute an action string', requestBody: json(StepRequest), responses: result } },
      '/record': {
        post: {
          summary: "A recording session's next action (long poll; reset with browser.record)",
          requestBody: json(RecordRequest),
          responses: { 200: { description: 'record reply', ...json(RecordReply) } },
        },
      },
      '/state': { get: { summary: 'Episode state', responses: { 200: { description: 'state', ...json(State) } } } },
      '/mcp': {
        post: {
          summary: 'JSON-RPC 2.0 (this env does not support MCP)',
          responses: { 200: { description: 'JSON-RPC response' } },
        },
      },
      '/sessions': {
        post: { summary: 'Open a stateful HTTP session', responses: { 200: { description: '{"session_id"}' } } },
      },
      '/sessions/{id}': { delete: { summary: 'Close a session', responses: { 200: { description: 'closed' } } } },
      '/tasks': { get: { summary: 'Available tasks', responses: { 200: { description: 'task list' } } } },
      '/metrics': { get: { summary: 'Prometheus metrics', responses: { 200: { description: 'text exposition' } } } },
    },
  };
}

/** JSON-RPC reply for `/mcp`: `{}` is an invalid request, anything else says MCP is unsupported. */
export function mcpReply(body: unknown): Record<string, unknown> {
  const request = (body && typeof body === 'object' ? body : {}) as {
    jsonrpc?: unknown;
    method?: unknown;
    id?: unknown;
  };
  const id = typeof request.id === 'string' || typeof request.id === 'number' ? request.id : null;
  if (request.jsonrpc !== '2.0' || typeof request.method !== 'string') {
    return { jsonrpc: '2.0', id, error: { code: -32600, message: 'Invalid Request' } };
  }
  return { jsonrpc: '2.0', id, error: { code: -32603, message: 'Environment does not support MCP' } };
}
