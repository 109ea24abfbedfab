import { randomBytes } from 'node:crypto';
import { readdir, rename, rm } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { exists, flush } from '../durable.js';

/**
 * Writes a folder that appears whole or not at all: `write` fills a sibling temporary folder,
 * whose files are flushed before it is renamed to `dir`. A folder already there (a version
 * rewritten after a resume) is replaced, never merged with. Returns the absolute path.
 */
export async function writeFolderAtomically(dir: string, write: (temporary: string) => Promise<void>): Promise<string> {
  const target = resolve(dir);
  const temporary = join(dirname(target), `.${basename(target)}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`);
  try {
    await write(temporary);
    for (const file of await readdir(temporary)) await flush(join(temporary, file));
    await flush(temporary);
    if (await exists(target)) {
      const old = `${temporary}.old`;
      await rename(target, old);
      await rename(temporary, target);
      await rm(old, { recursive: true, force: true });
    } else {
      await rename(temporary, target);
    }
    await flush(dirname(target));
  } catch (error) {
    await rm(temporary, { recursive: true, force: true });
    throw error;
  }
  return target;
}
