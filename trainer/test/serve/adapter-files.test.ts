import { execFileSync } from 'node:child_process';
import { constants } from 'node:fs';
import { mkdtemp, open, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { initLoraAdapter, loraModuleSlots } from '../../src/lora/adapter.js';
import { makeLoraConfig } from '../../src/lora/config.js';
import { ADAPTER_WEIGHTS_FILE, peftTensorKey, saveAdapter } from '../../src/lora/peft.js';
import { ADAPTER_CONFIG_FILE } from '../../src/lora/peft-config.js';
import { readSafetensors } from '../../src/model/safetensors.js';
import { rawSafetensors } from '../support/raw-safetensors.js';
import { startTinyServer } from './server-support.js';

// Issue 28 item 11: adapter files that loaded with a 200 and broke replies, cost memory, or hung loads.
let tiny: Awaited<ReturnType<typeof startTinyServer>>;
let root: string;
const fifos: string[] = [];
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'gauntlet-adapter-files-'));
  tiny = await startTinyServer({ adapterRoots: [root] });
});
afterAll(async () => {
  // A load blocked on a FIFO (the bug) is released by a writer, so the test process can end.
  for (const fifo of fifos)
    await open(fifo, constants.O_WRONLY | constants.O_NONBLOCK).then(
      (h) => h.close(),
      () => {},
    );
  await tiny?.stop();
  if (root) await rm(root, { recursive: true, force: true });
});

const load = (lora_name: string, lora_path: string) =>
  fetch(`${tiny.server.url}/v1/load_lora_adapter`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ lora_name, lora_path }),
    // The FIFO once hung the load forever: a bound turns that into a failure here, not a stuck run.
    signal: AbortSignal.timeout(20_000),
  }).then(async (res) => ({ status: res.status, json: (await res.json().catch(() => undefined)) as any }));

/** A good rank-2 adapter for the tiny model in root/name, and the key of its first lora_B. */
async function saveGood(name: string): Promise<{ dir: string; firstB: string }> {
  const dir = join(root, name);
  const adapter = initLoraAdapter(tiny.ctx.config, makeLoraConfig({ rank: 2 }), 1);
  await saveAdapter(dir, adapter, { baseModelNameOrPath: 'tiny' });
  return { dir, firstB: peftTensorKey([...adapter.modules.keys()][0]!, 'lora_B') };
}

describe('adapter files that must be refused', () => {
  it('factors that are NaN, ±Inf or beyond float16 range: 400 naming the tensor, and nothing is served', async () => {
    for (const [name, value] of [
      ['nan', NaN],
      ['inf', Infinity],
      ['minus-inf', -Infinity],
      ['huge', 3e38],
    ] as const) {
      const dir = join(root, name);
      const adapter = initLoraAdapter(tiny.ctx.config, makeLoraConfig({ rank: 2 }), 1);
      const [path, module] = [...adapter.modules][1]!;
      module.b.data[3] = value;
      await saveAdapter(dir, adapter, { baseModelNameOrPath: 'tiny' });
      const reply = await load(name, dir);
      expect(reply.status, name).toBe(400);
      expect(reply.json.error.message, name).toContain(
        `${ADAPTER_WEIGHTS_FILE}: tensor ${peftTensorKey(path, 'lora_B')}: it holds ${String(Math.fround(value))} at index 3`,
      );
    }
    const models = await (await fetch(`${tiny.server.url}/v1/models`)).json();
    expect(models.data.map((m: { id: string }) => m.id)).toEqual(['tiny']);
  });

  it('a tensor whose header does not fit the model is refused from the header, before its 400 MB are read', async () => {
    const { dir, firstB } = await saveGood('wide');
    const file = join(dir, ADAPTER_WEIGHTS_FILE);
    const { tensors } = await readSafetensors(file);
    // The same tensors, but the first lora_B declared [100,000,000, 2] and placed last (a sparse tail on disk).
    const header: Record<string, object> = {};
    const chunks: Buffer[] = [];
    let offset = 0;
    for (const [key, tensor] of tensors) {
      if (key === firstB) continue;
      const bytes = Buffer.from(tensor.data.buffer, tensor.data.byteOffset, tensor.data.byteLength);
      header[key] = { dtype: 'F32', shape: tensor.shape, data_offsets: [offset, offset + bytes.length] };
      chunks.push(bytes);
      offset += bytes.length;
    }
    const wideBytes = 100_000_000 * 2 * 4;
    header[firstB] = { dtype: 'F32', shape: [100_000_000, 2], data_offsets: [offset, offset + wideBytes] };
    const bytes = rawSafetensors(header, Buffer.concat(chunks));
    await writeFile(file, bytes);
    await truncate(file, bytes.length + wideBytes);
    const peakBefore = process.resourceUsage().maxRSS;
    const reply = await load('wide', dir);
    const grewKb = process.resourceUsage().maxRSS - peakBefore;
    expect(reply.status).toBe(400);
    const expected = loraModuleSlots(tiny.ctx.config, makeLoraConfig({ rank: 2 }))[0]!.bShape;
    expect(reply.json.error.message).toContain(
      `tensor ${firstB}: shape [100000000, 2] does not fit this model (expected [${expected.join(', ')}])`,
    );
    // Reading it took the 800 MB it declares; checking its header takes nothing like that.
    expect(grewKb).toBeLessThan(100 * 1024);
  });

  it('a FIFO in place of either file is refused at once, and a good adapter loads right after', async () => {
    for (const file of [ADAPTER_WEIGHTS_FILE, ADAPTER_CONFIG_FILE]) {
      const { dir } = await saveGood(`fifo-${file}`);
      const fifo = join(dir, file);
      await rm(fifo);
      execFileSync('mkfifo', [fifo]);
      fifos.push(fifo);
      const reply = await load(`fifo-${file}`, dir);
      expect(reply.status, file).toBe(400);
      expect(reply.json.error.message, file).toContain(`${file} is not a regular file`);
    }
    const { dir } = await saveGood('after-fifo');
    expect((await load('after-fifo', dir)).status).toBe(200);
  });
});
