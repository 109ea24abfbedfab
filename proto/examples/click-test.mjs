#!/usr/bin/env node
// Solves MiniWoB's click-test through the Gauntlet SDK, over whichever transport the URL names.
// Usage: node proto/examples/click-test.mjs [url]
//   grpc://127.0.0.1:50051 (default) · ws://127.0.0.1:8000 · http://127.0.0.1:8000
// Start a server first: npm start (HTTP + WebSocket on 8000, gRPC on 50051).
import { createEnvClient } from '@gauntlet/proto/client';

const env = createEnvClient(process.argv[2] ?? 'grpc://127.0.0.1:50051', { token: process.env.GAUNTLET_TOKEN });
try {
  const first = await env.reset({ task_name: 'click-test', seed: 1 }, { timeoutMs: 15_000 });
  const bid = /\[(\w+)\] button 'Click Me!'/.exec(first.observation.axtree_txt)?.[1];
  const result = await env.step(`click('${bid}')`, { timeoutMs: 5_000 });
  console.log(
    JSON.stringify({ transport: env.transport, session: env.sessionId, reward: result.reward, done: result.done }),
  );
} finally {
  await env.close();
}
