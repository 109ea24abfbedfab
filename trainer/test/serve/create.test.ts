import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { createServeContext } from '../../src/serve/create.js';

test('serving the built-in tiny model leaves nothing behind in the temp folder', async () => {
  const scratch = await mkdtemp(join(tmpdir(), 'gauntlet-serve-tmp-'));
  const saved = process.env['TMPDIR'];
  // os.tmpdir() reads TMPDIR on every call: the model's folder is made in the scratch folder.
  process.env['TMPDIR'] = scratch;
  try {
    const ctx = await createServeContext({ runtime: { intraOpNumThreads: 1 } });
    try {
      expect(ctx.tokenizer.encode('hello').length).toBeGreaterThan(0);
      // Only our folders: a native library drops files of its own there (an empty mat-debug-<pid>.log).
      expect((await readdir(scratch)).filter((name) => name.startsWith('gauntlet-'))).toEqual([]);
    } finally {
      await ctx.close();
    }
  } finally {
    if (saved === undefined) delete process.env['TMPDIR'];
    else process.env['TMPDIR'] = saved;
    await rm(scratch, { recursive: true, force: true });
  }
});
