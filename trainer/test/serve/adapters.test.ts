import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { initLoraAdapter } from '../../src/lora/adapter.js';
import { makeLoraConfig } from '../../src/lora/config.js';
import { saveAdapter } from '../../src/lora/peft.js';
import { useTempDirs } from '../support/temp-dir.js';
import { withRandomB } from '../support/tiny-models.js';
import { post, startTinyServer } from './server-support.js';

const tempDir = useTempDirs();
let tiny: Awaited<ReturnType<typeof startTinyServer>>;
/** The one folder this server loads adapters from at runtime, and one outside it. */
let root: string;
let outside: string;
beforeAll(async () => {
  [root, outside] = [
    await mkdtemp(join(tmpdir(), 'gauntlet-roots-')),
    await mkdtemp(join(tmpdir(), 'gauntlet-outside-')),
  ];
  tiny = await startTinyServer({ adapterRoots: [root] });
});
afterAll(async () => {
  await tiny?.stop();
  await Promise.all([root, outside].map((dir) => dir && rm(dir, { recursive: true, force: true })));
});

const probe = (model: string) =>
  post(`${tiny.server.url}/v1/completions`, {
    model,
    prompt: 'Hello',
    max_tokens: 6,
    temperature: 0,
    ignore_eos: true,
    logprobs: 0,
  });
const load = (lora_name: string, lora_path: string, extra: object = {}) =>
  post(`${tiny.server.url}/v1/load_lora_adapter`, { lora_name, lora_path, ...extra });

async function saveIn(parent: string, name: string, seed: number): Promise<string> {
  const dir = join(parent, name);
  await saveAdapter(
    dir,
    withRandomB(initLoraAdapter(tiny.ctx.config, makeLoraConfig({ rank: seed + 1, alpha: 16 }), seed), seed),
    { baseModelNameOrPath: 'tiny' },
  );
  return dir;
}

describe('runtime LoRA adapters', () => {
  it('load changes outputs, several serve at once by name, load_inplace swaps, unload restores the base', async () => {
    const url = tiny.server.url;
    const [dirA, dirB] = [await saveIn(root, 'a', 1), await saveIn(root, 'b', 2)];
    const base = (await probe('tiny')).json.choices[0];
    const loaded = await load('a', dirA);
    expect(loaded).toMatchObject({ status: 200, text: "Success: LoRA adapter 'a' added successfully." });
    await load('b', dirB);
    expect((await load('a', dirB)).status).toBe(400);
    const models = await (await fetch(`${url}/v1/models`)).json();
    expect(
      models.data.map((m: { id: string; root: string; parent: string | null }) => [m.id, m.root, m.parent]),
    ).toEqual([
      ['tiny', 'tiny', null],
      ['a', 'a', 'tiny'],
      ['b', 'b', 'tiny'],
    ]);
    const [withA, withB] = await Promise.all([probe('a'), probe('b')]);
    expect(withA.json.choices[0].logprobs.token_logprobs).not.toEqual(base.logprobs.token_logprobs);
    expect(withB.json.choices[0].logprobs.token_logprobs).not.toEqual(withA.json.choices[0].logprobs.token_logprobs);
    expect((await load('a', dirB, { load_inplace: true })).status).toBe(200);
    expect((await probe('a')).json.choices[0].logprobs.token_logprobs).toEqual(
      withB.json.choices[0].logprobs.token_logprobs,
    );
    expect((await post(`${url}/v1/unload_lora_adapter`, { lora_name: 'a' })).status).toBe(200);
    expect((await probe('a')).status).toBe(404);
    expect((await probe('tiny')).json.choices[0].logprobs.token_logprobs).toEqual(base.logprobs.token_logprobs);
  });

  it('reads only inside --adapter-root: outside folders, links out of it and missing folders are 400s that name no path', async () => {
    const elsewhere = await saveIn(outside, 'elsewhere', 3);
    await symlink(elsewhere, join(root, 'link-out'));
    const cases: [string, RegExp][] = [
      [elsewhere, /outside the folders this server loads adapters from/],
      [join(root, 'link-out'), /outside the folders this server loads adapters from/],
      [join(root, '..', 'gauntlet-outside-x'), /does not exist/],
      ['/nonexistent', /does not exist/],
      ['relative/dir', /does not exist/],
      ['bad\u0000path', /does not exist/],
    ];
    for (const [path, message] of cases) {
      const reply = await load('x', path);
      expect(reply.status, path).toBe(400);
      expect(reply.json.error.message).toMatch(message);
      expect(reply.text).not.toContain(outside);
      expect(reply.text).not.toContain(root);
    }
    expect(
      (await fetch(`${tiny.server.url}/v1/models`).then((r) => r.json())).data.map((m: { id: string }) => m.id),
    ).not.toContain('x');
  });

  it('never echoes what a file holds: a config linked to a file outside the root, or one that is not JSON', async () => {
    const secret = join(outside, 'secret.txt');
    await writeFile(secret, 'root:SECRET-LINE:0:0\n');
    const linked = await saveIn(root, 'linked-config', 4);
    await rm(join(linked, 'adapter_config.json'));
    await symlink(secret, join(linked, 'adapter_config.json'));
    const garbled = await saveIn(root, 'garbled', 5);
    await writeFile(join(garbled, 'adapter_config.json'), 'root:SECRET-LINE:0:0\n');
    const notJsonObject = join(root, 'array');
    await mkdir(notJsonObject);
    await writeFile(join(notJsonObject, 'adapter_config.json'), '["SECRET-LINE"]');
    await writeFile(join(notJsonObject, 'adapter_model.safetensors'), 'SECRET-LINE');
    const replies = [await load('x', linked), await load('x', garbled), await load('x', notJsonObject)];
    expect(replies.map((r) => r.status)).toEqual([400, 400, 400]);
    expect(replies[0]!.json.error.message).toMatch(/outside the folders/);
    expect(replies[1]!.json.error.message).toBe(
      "cannot load LoRA adapter 'x': adapter_config.json is not a JSON object of PEFT LoRA settings (the server log has the details)",
    );
    for (const reply of replies) expect(reply.text).not.toContain('SECRET');
    // The operator still learns what was wrong, from the log.
    expect(tiny.logged.some((line) => line.includes('not valid JSON'))).toBe(true);
  });

  it('with no --adapter and no --adapter-root, runtime loading is off', async () => {
    const closed = await startTinyServer();
    try {
      const dir = await saveIn(await tempDir(), 'any', 6);
      const reply = await post(`${closed.server.url}/v1/load_lora_adapter`, { lora_name: 'x', lora_path: dir });
      expect(reply.status).toBe(400);
      expect(reply.json.error.message).toMatch(
        /loading adapters at runtime is off on this server: start it with --adapter-root/,
      );
    } finally {
      await closed.stop();
    }
  });
});
