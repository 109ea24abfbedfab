import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordingProxy {
  /** The proxy's base URL (ends in /v1), to pass as --base-url. */
  baseUrl: string;
  /** The JSON bodies of every POST to /v1/chat/completions, as sent. */
  chatBodies: Record<string, unknown>[];
  close(): Promise<void>;
}

/** Forwards every request to a real server unchanged and keeps what the agent sent to it. */
export async function startRecordingProxy(target: string): Promise<RecordingProxy> {
  const chatBodies: Record<string, unknown>[] = [];
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    if (req.url === '/v1/chat/completions') chatBodies.push(JSON.parse(body.toString()) as Record<string, unknown>);
    const reply = await fetch(`${target}${req.url}`, {
      method: req.method!,
      headers: { 'content-type': req.headers['content-type'] ?? 'application/json' },
      ...(req.method === 'GET' ? {} : { body }),
    });
    res.writeHead(reply.status, { 'content-type': reply.headers.get('content-type') ?? 'application/json' });
    res.end(Buffer.from(await reply.arrayBuffer()));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    chatBodies,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
