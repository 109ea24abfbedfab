import { constants } from 'node:fs';
import { access, open, rename, writeFile, type FileHandle } from 'node:fs/promises';
import { ModelFileError } from './errors.js';

/** A path that names a FIFO, socket or device: reading one can block forever (a FIFO with no writer) or never end. */
export class NotRegularFileError extends ModelFileError {
  constructor(file: string) {
    super(file, 'is not a regular file (a FIFO, socket or device cannot be read as a model file)');
  }
}

/**
 * Opens a file for reading only if it is a regular file. The open does not block (O_NONBLOCK: a
 * FIFO with no writer would otherwise hold the open, and a libuv thread, forever) and the check
 * is on the opened handle, so the file cannot be swapped between the check and the read.
 */
export async function openRegularFile(file: string): Promise<FileHandle> {
  let handle: FileHandle;
  try {
    handle = await open(file, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    throw new ModelFileError(file, describeFsError(error));
  }
  const isFile = await handle.stat().then(
    (stats) => stats.isFile(),
    () => false,
  );
  if (isFile) return handle;
  await handle.close();
  throw new NotRegularFileError(file);
}

export async function pathExists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}

export async function readTextFile(file: string): Promise<string> {
  const handle = await openRegularFile(file);
  try {
    return await handle.readFile('utf8');
  } catch (error) {
    throw new ModelFileError(file, describeFsError(error));
  } finally {
    await handle.close();
  }
}

/** JSON as transformers writes it (2-space indent, trailing newline), renamed into place whole. */
export async function writeJsonFile(file: string, value: unknown): Promise<void> {
  await writeTextFile(file, `${JSON.stringify(value, null, 2)}\n`);
}

export async function writeTextFile(file: string, text: string): Promise<void> {
  const temporary = `${file}.tmp-${process.pid}`;
  await writeFile(temporary, text);
  await rename(temporary, file);
}

export function describeFsError(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return 'file not found';
  if (code === 'EISDIR') return 'is a directory, expected a file';
  if (code === 'EACCES') return 'permission denied';
  return `cannot be read (${(error as Error).message})`;
}
