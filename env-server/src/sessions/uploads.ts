import { tmpdir } from 'node:os';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { ActionError } from '../actions/types.js';

/** Uploads may only read files under this folder, so an agent cannot exfiltrate server files. */
export const UPLOAD_DIR = process.env.GAUNTLET_UPLOAD_DIR ?? join(tmpdir(), 'gauntlet-uploads');

export function resolveUploadPath(file: string, root = UPLOAD_DIR): string {
  const full = resolve(root, file);
  const inside = relative(root, full);
  if (inside.startsWith('..') || isAbsolute(inside)) {
    throw new ActionError('PermissionError', `upload_file may only read files under ${root} (got ${JSON.stringify(file)})`);
  }
  return full;
}
