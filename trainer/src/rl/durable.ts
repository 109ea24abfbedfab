import { open, stat } from 'node:fs/promises';

/** fsync a file or folder, so a crash after a rename cannot leave the new name pointing at unwritten data. */
export async function flush(path: string): Promise<void> {
  const handle = await open(path, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

export async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}
