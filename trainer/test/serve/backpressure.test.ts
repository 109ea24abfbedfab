import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { post, startTinyServer } from './server-support.js';

let tiny: Awaited<ReturnType<typeof startTinyServer>>;
beforeAll(async () => {
  tiny = await startTinyServer({ maxBatch: 2, maxWaiting: 1 });
});
afterAll(async () => tiny.stop());

describe('backpressure', () => {
  it('takes a request with n > 1 whole or refuses it whole with a 503 while the queue is busy, starting none of its sequences', async () => {
    const url = tiny.server.url;
    const body = { prompt: 'x', max_tokens: 4, temperature: 1, seed: 1 };
    expect(tiny.ctx.engine.room).toBe(3);
    // Two of the three places held by a streamed request that runs until it is let go.
    const holder = new AbortController();
    const busy = await fetch(`${url}/v1/completions`, {
      method: 'POST',
      body: JSON.stringify({ ...body, n: 2, max_tokens: 4000, ignore_eos: true, stream: true }),
      signal: holder.signal,
    });
    await busy.body!.getReader().read();
    expect(tiny.ctx.engine.room).toBe(1);
    const refused = await post(`${url}/v1/completions`, { ...body, n: 2 });
    expect(refused.status).toBe(503);
    expect(refused.json.error.type).toBe('ServiceUnavailableError');
    expect(refused.json.error.message).toMatch(/queue is full/);
    expect(tiny.ctx.engine.room).toBe(1);
    expect(tiny.ctx.engine.stats.rejected).toBe(1);
    holder.abort();
    await vi.waitFor(() => expect(tiny.ctx.engine.room).toBe(3), { timeout: 10_000 });
    const taken = await post(`${url}/v1/completions`, { ...body, n: 3 });
    expect(taken.status).toBe(200);
    expect(taken.json.choices).toHaveLength(3);
  });
});
