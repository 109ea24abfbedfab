import { mkdir, readdir } from 'node:fs/promises';
import { UsageError } from './command.js';

/** Creates `dir`, refusing one that already holds files unless `force` (never clobber a real model by a typo). */
export async function prepareOutputDir(dir: string, force: boolean, commandName: string): Promise<void> {
  const entries = await readdir(dir).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [];
    if (error.code === 'ENOTDIR') throw new UsageError(`${commandName}: ${dir} exists and is not a folder`);
    throw error;
  });
  if (entries.length > 0 && !force) {
    throw new UsageError(`${commandName}: ${dir} is not empty (pass --force to write into it anyway)`);
  }
  await mkdir(dir, { recursive: true });
}
