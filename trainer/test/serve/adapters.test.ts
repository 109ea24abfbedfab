import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { initLoraAdapter } from '../../src/lora/adapter.js';
import { makeLoraConfig } from '../../src/lora/config.js';
import { saveAdapter } from '../../src/lora/peft.js';
import { useTempDirs } from '../support/temp-dir.js';
import { withRandomB } from '../support/tiny-models.js';
import { post, startTinyServer } from './server-support.js';

let tiny: Awaited<ReturnType<typeof startTinyServer>>;
beforeAll(async () => (tiny = await startTinyServer()));
afterAll(async () => tiny.stop());
const tempDir = useTempDirs();

const probe = (model: string) => post(`${tiny.server.url}/v1/completions`, { model, prompt: 'Hello', max_tokens: 6, temperature: 0, ignore_eos: true, logprobs: 0 });

describe('runtime LoRA adapters', () => {
  it('load changes outputs, several serve at once by name, load_inplace swaps, unload restores the base', async () => {
    const url = tiny.server.url;
    const save = async (seed: number) => {
      const dir = await tempDir();
      await saveAdapter(dir, withRandomB(initLoraAdapter(tiny.ctx.config, makeLoraConfig({ rank: seed + 1, alpha: 16 }), seed), seed), { baseModelNameOrPath: 'tiny' });
      return dir;
    };
    const [dirA, dirB] = [await save(1), await save(2)];
    const base = (await probe('tiny')).json.choices[0];
    const loaded = await post(`${url}/v1/load_lora_adapter`, { lora_name: 'a', lora_path: dirA });
    expect(loaded).toMatchObject({ status: 200, text: "Success: LoRA adapter 'a' added successfully." });
    await post(`${url}/v1/load_lora_adapter`, { lora_name: 'b', lora_path: dirB });
    expect((await post(`${url}/v1/load_lora_adapter`, { lora_name: 'a', lora_path: dirB })).status).toBe(400);
    const models = await (await fetch(`${url}/v1/models`)).json();
    expect(models.data.map((m: { id: string; parent: string | null }) => [m.id, m.parent])).toEqual([['tiny', null], ['a', 'tiny'], ['b', 'tiny']]);
    const [withA, withB] = await Promise.all([probe('a'), probe('b')]);
    expect(withA.json.choices[0].logprobs.token_logprobs).not.toEqual(base.logprobs.token_logprobs);
    expect(withB.json.choices[0].logprobs.token_logprobs).not.toEqual(withA.json.choices[0].logprobs.token_logprobs);
    expect((await post(`${url}/v1/load_lora_adapter`, { lora_name: 'a', lora_path: dirB, load_inplace: true })).status).toBe(200);
    expect((await probe('a')).json.choices[0].logprobs.token_logprobs).toEqual(withB.json.choices[0].logprobs.token_logprobs);
    expect((await post(`${url}/v1/unload_lora_adapter`, { lora_name: 'a' })).status).toBe(200);
    expect((await probe('a')).status).toBe(404);
    expect((await probe('tiny')).json.choices[0].logprobs.token_logprobs).toEqual(base.logprobs.token_logprobs);
    expect((await post(`${url}/v1/load_lora_adapter`, { lora_name: 'c', lora_path: '/nonexistent' })).status).toBe(400);
  });
});
