import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { post, startTinyServer } from './server-support.js';

let tiny: Awaited<ReturnType<typeof startTinyServer>>;
let url: string;
beforeAll(async () => {
  tiny = await startTinyServer({ prefixCacheTokens: 0 });
  url = tiny.server.url;
});
afterAll(async () => tiny?.stop());

describe('the engine runs off the event loop', () => {
  it('/health keeps answering during one long prefill step', async () => {
    // One prompt, one token: the whole request is a single prefill step of 3,000 positions.
    const prompt = Array.from({ length: 3000 }, (_, i) => 65 + (i % 26));
    let done = false;
    const started = performance.now();
    const request = post(`${url}/v1/completions`, { prompt, max_tokens: 1 }).finally(() => (done = true));
    const answeredAt: number[] = [started];
    while (!done) {
      await (await fetch(`${url}/health`)).text();
      answeredAt.push(performance.now());
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect((await request).status).toBe(200);
    const took = performance.now() - started;
    const gaps = answeredAt.slice(1).map((at, i) => at - answeredAt[i]!);
    // On the event loop, the step held every probe for its whole length: one gap as long as the request.
    expect(
      Math.max(...gaps),
      `request ${took.toFixed(0)} ms, gaps ${gaps.map((g) => g.toFixed(0)).join(' ')}`,
    ).toBeLessThan(took / 2);
  });

  it('/health says 503 once the inference thread is gone', async () => {
    const other = await startTinyServer();
    try {
      expect((await fetch(`${other.server.url}/health`)).status).toBe(200);
      await other.ctx.engine.model.release();
      expect((await fetch(`${other.server.url}/health`)).status).toBe(503);
      expect(await (await fetch(`${other.server.url}/health/`)).json()).toEqual({
        status: 'unavailable',
        reason: expect.stringMatching(/^the inference thread has stopped: /),
      });
      const refused = await post(`${other.server.url}/v1/completions`, { prompt: 'x', max_tokens: 1 });
      expect(refused.status).toBe(503);
      expect(refused.json.error.message).toBe('the inference engine has stopped; this server needs a restart');
    } finally {
      await other.stop();
    }
  });
});
