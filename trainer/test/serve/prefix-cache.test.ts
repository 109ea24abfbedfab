import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { post, startTinyServer } from './server-support.js';

let tiny: Awaited<ReturnType<typeof startTinyServer>>;
let url: string;
beforeAll(async () => {
  tiny = await startTinyServer();
  url = tiny.server.url;
});
afterAll(async () => tiny.stop());

const metric = async (name: string) =>
  Number(new RegExp(`^gauntlet:${name} (\\S+)$`, 'm').exec(await (await fetch(`${url}/metrics`)).text())?.[1]);

describe('prefix cache over HTTP', () => {
  it("a turn that resends the last prompt + completion reports the reused tokens in usage (vLLM's cached_tokens) and /metrics", async () => {
    const sampling = { temperature: 1, seed: 5, max_tokens: 12, ignore_eos: true, return_token_ids: true };
    const first = Array.from({ length: 40 }, (_, i) => (i * 37 + 11) % 250);
    const turn1 = await post(`${url}/v1/completions`, { prompt: first, ...sampling });
    expect(turn1.json.usage.prompt_tokens_details).toEqual({ cached_tokens: 0 });
    const second = [...first, ...turn1.json.choices[0].token_ids, ...Array.from({ length: 20 }, (_, i) => 100 + i)];
    const turn2 = await post(`${url}/v1/completions`, { prompt: second, ...sampling });
    expect(turn2.status).toBe(200);
    // What turn 1 computed (40 prompt + 11 fed-back completion tokens), in whole 16-token blocks.
    expect(turn2.json.usage).toMatchObject({ prompt_tokens: 72, prompt_tokens_details: { cached_tokens: 48 } });
    expect(await metric('prefix_cache_hits_total')).toBe(1);
    expect(await metric('prefix_cache_hit_tokens_total')).toBe(48);
    expect(await metric('prefix_cache_query_tokens_total')).toBe(40 + 72);
    expect(await metric('prefix_cache_tokens')).toBeGreaterThanOrEqual(64);
    expect(await metric('prefix_cache_evicted_blocks_total')).toBe(0);
  });
});
