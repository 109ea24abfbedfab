import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ChatRequest, FakeAnswer } from './fake-chat.js';

export interface OracleTap {
  /** The tap's URL, to pass as the agent's --env (HTTP transport). */
  url: string;
  /** A fake chat model's answer: the oracle's action for the page the agent saw last. */
  answer(request: ChatRequest): FakeAnswer;
  /** Every oracle action the model was handed, in order. */
  answered: string[];
  close(): Promise<void>;
}

/**
 * Sits between the agent and a real env server (HTTP) and makes a chat model "know" the oracle
 * without a second episode that could drift from the agent's. Each reset is forwarded with
 * `observation.oracle_action: true`, so the env computes its oracle on the very observation it
 * returns; the tap takes `browsergym_info.oracle_action` (and `oracle_error`) out of the reply
 * before the agent sees it and keeps it for the one chat request that observation leads to. The
 * agent is strictly sequential (reply, then prompt, then step), so the pending answer is always
 * the page being asked about; a second question about one page is refused (500), never guessed.
 */
export async function startOracleTap(envUrl: string): Promise<OracleTap> {
  const target = envUrl.replace(/\/+$/, '');
  let pending: string | null | undefined;
  const answered: string[] = [];
  const server: Server = createServer((req, res) => {
    void forward(target, req).then(
      ({ status, type, body }) => {
        if (status === 200 && (req.url === '/reset' || req.url === '/step')) {
          const result = JSON.parse(body.toString()) as { metadata: { browsergym_info: Record<string, unknown> } };
          const info = result.metadata.browsergym_info;
          pending = typeof info['oracle_action'] === 'string' ? info['oracle_action'] : null;
          delete info['oracle_action'];
          delete info['oracle_error'];
          body = Buffer.from(JSON.stringify(result));
        }
        res.writeHead(status, { 'content-type': type }).end(body);
      },
      (error: Error) => res.writeHead(502, { 'content-type': 'text/plain' }).end(error.message),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    answered,
    answer() {
      if (pending === undefined) throw new Error('the tap has no new observation for this question');
      const action = pending ?? 'noop()';
      pending = undefined;
      answered.push(action);
      // A thinking block first, as reasoning models write: the agent must strip it before parsing.
      return { text: `<think>the page asks for ${action.split('(')[0]}</think>\nAction:\n\`\`\`\n${action}\n\`\`\`` };
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** Sends the request on to the env as it came, asking for the oracle's action on a reset. */
async function forward(target: string, req: IncomingMessage): Promise<{ status: number; type: string; body: Buffer }> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  let body = Buffer.concat(chunks);
  if (req.url === '/reset') {
    const reset = JSON.parse(body.toString()) as { observation?: Record<string, unknown> };
    body = Buffer.from(JSON.stringify({ ...reset, observation: { ...reset.observation, oracle_action: true } }));
  }
  const headers: Record<string, string> = {};
  for (const name of ['content-type', 'authorization', 'x-session-id'])
    if (typeof req.headers[name] === 'string') headers[name] = req.headers[name];
  const reply = await fetch(`${target}${req.url}`, {
    method: req.method!,
    headers,
    ...(body.length === 0 ? {} : { body }),
  });
  return {
    status: reply.status,
    type: reply.headers.get('content-type') ?? 'application/json',
    body: Buffer.from(await reply.arrayBuffer()),
  };
}
