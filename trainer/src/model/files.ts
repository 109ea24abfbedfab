import { access, readFile, rename, writeFile } from 'node:fs/promises';
import { ModelFileError } from './errors.js';

export async function pathExists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}

export async function readTextFile(file: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    throw new ModelFileError(file, describeFsError(error));
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
