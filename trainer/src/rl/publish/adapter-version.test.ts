import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { initLoraAdapter } from '../../lora/adapter.js';
import { makeLoraConfig } from '../../lora/config.js';
import { loadAdapter } from '../../lora/peft.js';
import { tinyModelConfig } from '../../model/tiny.js';
import { VERSION_FILE, writeAdapterVersion } from './adapter-version.js';

let root = '';
afterEach(() => rm(root, { recursive: true, force: true }));

describe('writeAdapterVersion', () => {
  it('writes a PEFT folder naming the base model, replaces an old one whole, and leaves no temporary folder', async () => {
    root = await mkdtemp(join(tmpdir(), 'gauntlet-version-'));
    const config = tinyModelConfig();
    const lora = makeLoraConfig({ rank: 2 });
    const dir = join(root, 'run@v1');
    await writeAdapterVersion(initLoraAdapter(config, lora, 1), dir, { baseModel: '/models/tiny', name: 'run@v1' });
    await writeAdapterVersion(initLoraAdapter(config, lora, 2), dir, { baseModel: '/models/tiny', name: 'run@v1' });
    const loaded = await loadAdapter(dir, { model: config });
    expect(loaded.baseModelNameOrPath).toBe('/models/tiny');
    const second = initLoraAdapter(config, lora, 2);
    const [path, module] = [...second.modules][0]!;
    expect(loaded.modules.get(path)!.a.data).toEqual(module.a.data);
    expect(JSON.parse(await readFile(join(dir, VERSION_FILE), 'utf8'))).toMatchObject({ name: 'run@v1' });
    expect(await readdir(root)).toEqual(['run@v1']);
  });

  it('requires the base model', async () => {
    const adapter = initLoraAdapter(tinyModelConfig(), makeLoraConfig({ rank: 2 }), 1);
    await expect(writeAdapterVersion(adapter, '/tmp/x', { baseModel: ' ' })).rejects.toThrow(/baseModel/);
  });
});
