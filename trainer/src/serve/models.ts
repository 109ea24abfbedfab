import type { IncomingMessage, ServerResponse } from 'node:http';
import { loadLoraRequest, unloadLoraRequest } from '@gauntlet/proto/policy-server';
import type { ServeContext } from './context.js';
import { sendJson, sendText } from './http-io.js';
import { parseBody } from './parse.js';

/** GET /v1/models: the base model, then each adapter with `parent` = the base. */
export function listModels(ctx: ServeContext, _body: unknown, _req: IncomingMessage, res: ServerResponse): void {
  const base = ctx.adapters.baseName;
  const card = (id: string, root: string, parent: string | null, created: number) => ({
    id,
    object: 'model',
    created,
    owned_by: 'gauntlet',
    root,
    parent,
    max_model_len: ctx.limits.maxModelLen,
  });
  // vLLM puts an adapter's folder in `root`; a reply names no server path, so it is the adapter's name.
  const data = [
    card(base, base, null, ctx.startedAt),
    ...ctx.adapters.list().map((l) => card(l.name, l.name, base, l.created)),
  ];
  sendJson(res, 200, { object: 'list', data });
}

/** POST /v1/load_lora_adapter: reads a PEFT folder inside the server's adapter roots; plain-text reply as vLLM's. */
export async function loadLora(
  ctx: ServeContext,
  body: unknown,
  _req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const request = parseBody(loadLoraRequest, body, 'load_lora_adapter');
  await ctx.adapters.loadRequested(request.lora_name, request.lora_path, request.load_inplace ?? false);
  sendText(res, 200, `Success: LoRA adapter '${request.lora_name}' added successfully.`);
}

export function unloadLora(ctx: ServeContext, body: unknown, _req: IncomingMessage, res: ServerResponse): void {
  const request = parseBody(unloadLoraRequest, body, 'unload_lora_adapter');
  ctx.adapters.unload(request.lora_name);
  sendText(res, 200, `Success: LoRA adapter '${request.lora_name}' removed successfully.`);
}
