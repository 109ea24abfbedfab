import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { post, startTinyServer } from './server-support.js';

let tiny: Awaited<ReturnType<typeof startTinyServer>>;
beforeAll(async () => {
  tiny = await startTinyServer({ maxBatch: 2, maxWaiting: 1 });
});
afterAll(async () => tiny.stop());

describe('backpressure', () => {
  it('takes a request with n > 1 whole or refuses it whole with a 503, starting none of its sequences', async () => {
    const body = { prompt: 'x', max_tokens: 4, temperature: 1, seed: 1 };
    expect(tiny.ctx.engine.room).toBe(3);
    const refused = await post(`${tiny.server.url}/v1/completions`, { ...body, n: 4 });
    expect(refused.status).toBe(503);
    expect(refused.json.error.type).toBe('ServiceUnavailableError');
    expect(refused.json.error.message).toMatch(/queue is full/);
    expect(tiny.ctx.engine.room).toBe(3);
    expect(tiny.ctx.engine.stats.rejected).toBe(1);
    const taken = await post(`${tiny.server.url}/v1/completions`, { ...body, n: 3 });
    expect(taken.status).toBe(200);
    expect(taken.json.choices).toHaveLength(3);
  });
});
