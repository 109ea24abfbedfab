import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ActionError } from '../actions/types.js';
import { resolveUploadPath } from './uploads.js';

const scratch = mkdtempSync(join(tmpdir(), 'gauntlet-uploads-test-'));
const offered = join(scratch, 'offered');
const secret = join(scratch, 'secret.txt');
mkdirSync(join(offered, 'docs'), { recursive: true });
writeFileSync(join(offered, 'receipt.pdf'), 'pdf');
writeFileSync(join(offered, 'docs', 'cv.txt'), 'cv');
writeFileSync(secret, 'not for the agent');
symlinkSync(secret, join(offered, 'link-out.txt'));
symlinkSync(join(offered, 'receipt.pdf'), join(offered, 'link-in.pdf'));
symlinkSync(scratch, join(offered, 'parent'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** The action error `file` gets with `dir` as the upload folder (the test folder when omitted). */
function refusal(file: string, ...dir: [string | undefined] | []): string {
  try {
    resolveUploadPath(file, dir.length ? dir[0] : offered);
  } catch (error) {
    if (error instanceof ActionError) return error.display;
    throw error;
  }
  throw new Error(`expected ${JSON.stringify(file)} to be refused`);
}

describe('resolveUploadPath', () => {
  it('hands out files inside the upload folder, by relative name or absolute path', () => {
    expect(resolveUploadPath('receipt.pdf', offered)).toBe(join(offered, 'receipt.pdf'));
    expect(resolveUploadPath('docs/cv.txt', offered)).toBe(join(offered, 'docs', 'cv.txt'));
    expect(resolveUploadPath(join(offered, 'receipt.pdf'), offered)).toBe(join(offered, 'receipt.pdf'));
  });

  it('resolves a symlink inside the folder to the file it names', () => {
    expect(resolveUploadPath('link-in.pdf', offered)).toBe(join(offered, 'receipt.pdf'));
  });

  it('refuses symlinks that lead outside, and paths that climb out, without naming the folder', () => {
    expect(refusal('link-out.txt')).toBe(
      'PermissionError: upload_file may only read the files offered for upload (got "link-out.txt")',
    );
    expect(refusal('parent/secret.txt')).toBe(
      'PermissionError: upload_file may only read the files offered for upload (got "parent/secret.txt")',
    );
    expect(refusal('../secret.txt')).toBe(
      'PermissionError: upload_file may only read the files offered for upload (got "../secret.txt")',
    );
    expect(refusal('/etc/passwd')).toBe(
      'PermissionError: upload_file may only read the files offered for upload (got "/etc/passwd")',
    );
  });

  it.each(['missing.txt', '', '.', 'docs', 'docs/', 'receipt.pdf\u0000.txt'])(
    'answers %j with a ValueError, not a server error',
    (file) => {
      expect(refusal(file)).toBe(`ValueError: file ${JSON.stringify(file)} is not available for upload`);
    },
  );

  it('is off without an upload folder, and says so when the folder is gone', () => {
    expect(refusal('receipt.pdf', undefined)).toBe(
      'PermissionError: upload_file is off: the operator offers no files for upload (--upload-dir)',
    );
    expect(refusal('receipt.pdf', join(scratch, 'gone'))).toBe(
      'ValueError: upload_file has no files to offer: the upload folder is missing',
    );
  });

  it('never puts a path of this machine in its errors', () => {
    for (const file of ['missing.txt', '', '.', 'link-out.txt', '../x', 'docs'])
      expect(refusal(file)).not.toContain(scratch);
  });
});
