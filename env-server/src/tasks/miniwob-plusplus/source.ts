import { existsSync, readdirSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConfigError } from '../../config.js';
import { TASK_ORIGIN, type SiteMount } from '../../browser/site.js';
import { BROWSERGYM_TASKS, REALTIME_TASKS, TASK_NAME } from './task-names.js';

/** Where the real MiniWoB++ pages come from, and which tasks they offer. */
export interface MiniwobSource {
  /** Task page = base + name + `.html`; always ends with `/`. */
  base: string;
  names: string[];
  /** The folder served on the task origin, for `--miniwob-dir` (and file:// URLs). */
  mount?: SiteMount;
}

export interface MiniwobSettings {
  miniwobUrl: string | undefined;
  miniwobDir: string | undefined;
  miniwobTasks: string[];
}

/** Where `--miniwob-dir` pages live on the task origin; the folder's parent is served there. */
export const MOUNT_PREFIX = '/miniwob-plusplus/';

/** Reads the operator's settings; undefined when real MiniWoB++ is not configured. */
export function miniwobSource(settings: MiniwobSettings): MiniwobSource | undefined {
  const { miniwobUrl, miniwobDir } = settings;
  if (miniwobUrl && miniwobDir)
    throw new ConfigError('Set one of MINIWOB_URL (--miniwob-url) and --miniwob-dir (MINIWOB_DIR), not both');
  const chosen = requestedNames(settings.miniwobTasks);
  if (miniwobDir) return fromDir(miniwobDir, chosen);
  if (!miniwobUrl) return undefined;
  let url: URL;
  try {
    url = new URL(miniwobUrl);
  } catch {
    throw new ConfigError(`MINIWOB_URL must be an http(s) or file URL (got ${JSON.stringify(miniwobUrl)})`);
  }
  if (url.protocol === 'file:') return fromDir(fileURLToPath(url), chosen);
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new ConfigError(`MINIWOB_URL must be an http(s) or file URL (got ${JSON.stringify(miniwobUrl)})`);
  if (url.search || url.hash) throw new ConfigError('MINIWOB_URL must not carry a query or fragment');
  // A URL cannot be listed reliably: MiniWoB++'s own task list, unless the operator names tasks.
  const base = url.href.endsWith('/') ? url.href : `${url.href}/`;
  return { base, names: chosen ?? [...BROWSERGYM_TASKS, ...REALTIME_TASKS].sort() };
}

function requestedNames(list: string[]): string[] | undefined {
  if (list.length === 0) return undefined;
  const bad = list.filter((name) => !TASK_NAME.test(name));
  if (bad.length > 0)
    throw new ConfigError(
      `--miniwob-tasks: ${bad.map((n) => JSON.stringify(n)).join(', ')} are not task names (lower-case letters, digits, -)`,
    );
  return [...new Set(list)].sort();
}

/**
 * A local copy: the folder of task pages (`html/miniwob`; the `html` folder above it is taken
 * too). Its parent is served, because pages load `../core/core.js` and `../common/...`.
 */
function fromDir(dir: string, chosen: string[] | undefined): MiniwobSource {
  const given = resolve(dir);
  if (!existsSync(given) || !statSync(given).isDirectory())
    throw new ConfigError(`--miniwob-dir ${JSON.stringify(dir)} is not a folder`);
  const pagesDir = pageNames(given).length === 0 && existsSync(join(given, 'miniwob')) ? join(given, 'miniwob') : given;
  const found = pageNames(pagesDir);
  if (found.length === 0)
    throw new ConfigError(`No MiniWoB++ task pages (*.html) in ${pagesDir}: point --miniwob-dir at html/miniwob`);
  const missing = (chosen ?? []).filter((name) => !found.includes(name));
  if (missing.length > 0) throw new ConfigError(`--miniwob-tasks: no page for ${missing.join(', ')} in ${pagesDir}`);
  const root = dirname(pagesDir);
  return {
    base: `${TASK_ORIGIN}${MOUNT_PREFIX}${encodeURIComponent(basename(pagesDir))}/`,
    names: chosen ?? found,
    mount: { prefix: MOUNT_PREFIX, root },
  };
}

/** Task pages in a folder: `<name>.html` with a task-like name (index.html and the like are not tasks). */
function pageNames(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.html'))
    .map((entry) => entry.name.slice(0, -'.html'.length))
    .filter((name) => TASK_NAME.test(name) && name !== 'index')
    .sort();
}
