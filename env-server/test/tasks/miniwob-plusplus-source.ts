import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Where the real-MiniWoB++ tests get their pages: a copy of MiniWoB++ when MINIWOB_URL is set in
 * the environment, else our MiniWoB-protocol fixture pages copied to a temp folder and served
 * by the env server itself (--miniwob-dir).
 */
export interface MiniwobPages {
  config: { miniwobUrl?: string; miniwobDir?: string };
  /** True when the pages are the fixtures (tests of fixture-only behaviour run then). */
  fixtures: boolean;
  remove(): void;
}

export function miniwobPages(): MiniwobPages {
  const url = process.env['MINIWOB_URL'];
  if (url) return { config: { miniwobUrl: url }, fixtures: false, remove: () => undefined };
  const dir = mkdtempSync(join(tmpdir(), 'gauntlet-miniwob-'));
  cpSync(fileURLToPath(new URL('../fixtures/miniwob-plusplus/', import.meta.url)), dir, { recursive: true });
  return {
    config: { miniwobDir: join(dir, 'miniwob') },
    fixtures: true,
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** Tasks both the fixtures and MiniWoB++ have. */
export const SHARED_TASKS = ['click-test', 'enter-text', 'book-flight'];
