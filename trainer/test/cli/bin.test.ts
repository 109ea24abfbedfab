import { readFile, readdir } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadModel } from '../../src/model/weights.js';
import { useTempDirs } from '../support/temp-dir.js';
import { BIN, runBin, runInProcess } from './run-cli.js';

const tempDir = useTempDirs();

describe('gauntlet-trainer bin (spawned node process)', () => {
  it('is an executable node script', async () => {
    expect((await readFile(BIN, 'utf8')).startsWith('#!/usr/bin/env node\n')).toBe(true);
  });

  it('a port already in use is one line naming --port, exit 1 (no stack trace)', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const { port } = taken.address() as { port: number };
    try {
      const { code, stderr } = await runInProcess(['serve', '--port', String(port)]);
      expect(code).toBe(1);
      expect(stderr).toBe(
        `gauntlet-trainer serve: --port ${port}: 127.0.0.1:${port} is already in use (pick another --port, or 0 for any free one)`,
      );
    } finally {
      taken.close();
    }
  });

  it('prints the tool help listing every command, exit 0', () => {
    const { code, stdout } = runBin(['--help']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^Usage: gauntlet-trainer <command> \[options\]/);
    for (const command of ['init-tiny', 'inspect', 'sft', 'export-adapter']) expect(stdout).toContain(`  ${command}`);
  });

  it('prints subcommand help explaining every flag', () => {
    const { code, stdout } = runBin(['init-tiny', '--help']);
    expect(code).toBe(0);
    for (const flag of [
      '--arch NAME',
      '--seed N',
      '--hidden-size N',
      '--layers N',
      '--heads N',
      '--kv-heads N',
      '--head-dim N',
      '--intermediate-size N',
      '--tie-embeddings',
      '--prev-token-heads N',
      '--prev-token-offsets K,…',
      '--force',
      '--help',
    ]) {
      expect(stdout).toContain(flag);
    }
  });

  it('exits 2 with a hint for an unknown command or flag', () => {
    const unknown = runBin(['trian']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('unknown command "trian"');
    const badFlag = runBin(['init-tiny', 'x', '--sed', '3']);
    expect(badFlag.code).toBe(2);
    expect(badFlag.stderr).toBe('gauntlet-trainer init-tiny: unknown flag --sed (see --help)\n');
  });

  it('init-tiny writes a folder that loads, and the same seed writes the same bytes', async () => {
    const [a, b] = [join(await tempDir(), 'a'), join(await tempDir(), 'b')];
    for (const dir of [a, b]) {
      const { code, stdout, stderr } = runBin(['init-tiny', dir, '--arch', 'qwen3', '--seed', '4']);
      expect(stderr).toBe('');
      expect(code).toBe(0);
      expect(stdout).toContain(`Wrote a tiny qwen3 model`);
    }
    const files = await readdir(a);
    for (const file of files) expect((await readFile(join(a, file))).equals(await readFile(join(b, file)))).toBe(true);
    expect((await loadModel(a)).config).toMatchObject({ architecture: 'qwen3', qkNorm: true });
  });

  it('exits 1 naming the file when a model folder is broken', async () => {
    const dir = await tempDir();
    runBin(['init-tiny', dir]);
    const { writeFile } = await import('node:fs/promises');
    await writeFile(join(dir, 'config.json'), '{"architectures": ["GPT2LMHeadModel"]}');
    const { code, stderr } = runBin(['inspect', dir]);
    expect(code).toBe(1);
    expect(stderr).toContain(`${join(dir, 'config.json')}: architectures ["GPT2LMHeadModel"] is not supported`);
  });
});
