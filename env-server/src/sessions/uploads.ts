import { realpathSync, statSync } from 'node:fs';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { ActionError } from '../actions/types.js';

/**
 * The file `upload_file` may hand to the page for the agent's `file`: a regular file inside the
 * operator's upload folder (`--upload-dir`), symlinks resolved first so a link inside cannot
 * point outside. Uploads are off without a folder (a shared, world-writable default would let
 * anyone on the machine plant or swap files). Errors name the file as the agent wrote it, never
 * a path on this machine.
 */
export function resolveUploadPath(file: string, uploadDir: string | undefined): string {
  if (!uploadDir)
    throw new ActionError(
      'PermissionError',
      'upload_file is off: the operator offers no files for upload (--upload-dir)',
    );
  const unavailable = () => new ActionError('ValueError', `file ${JSON.stringify(file)} is not available for upload`);
  const outside = () =>
    new ActionError(
      'PermissionError',
      `upload_file may only read the files offered for upload (got ${JSON.stringify(file)})`,
    );
  let root: string;
  try {
    root = realpathSync(uploadDir);
  } catch {
    throw new ActionError('ValueError', 'upload_file has no files to offer: the upload folder is missing');
  }
  const target = resolve(root, file);
  if (target !== root && !isInside(root, target)) throw outside();
  let real: string;
  try {
    real = realpathSync(target);
  } catch {
    throw unavailable();
  }
  if (real !== root && !isInside(root, real)) throw outside();
  if (!isRegularFile(real)) throw unavailable();
  return real;
}

function isInside(root: string, path: string): boolean {
  const inside = relative(root, path);
  return inside !== '' && inside !== '..' && !inside.startsWith('..' + sep) && !isAbsolute(inside);
}

function isRegularFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}
