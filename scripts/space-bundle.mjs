#!/usr/bin/env node
// Writes what a Hugging Face Space repository needs to build and run the env server: the Space's
// README.md (front matter: sdk docker, app_port) and Dockerfile from space/, plus the sources
// they build (root manifests, proto/, env-server/, docker/healthcheck.mjs). Tests are left out.
//
//   node scripts/space-bundle.mjs <dir>
//
// <dir> may be a clone of the Space repository: the bundle's own paths are replaced (so files
// deleted here disappear there too), while .git and anything else in it are left alone.
import { cpSync, mkdirSync, rmSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** Bundle path ← repository path. Folders are copied whole, minus what `keep` rejects. */
const ENTRIES = [
  ['README.md', 'space/README.md'],
  ['LICENSE', 'LICENSE'],
  ['Dockerfile', 'space/Dockerfile'],
  ['package.json', 'package.json'],
  ['package-lock.json', 'package-lock.json'],
  ['tsconfig.base.json', 'tsconfig.base.json'],
  ['docker/healthcheck.mjs', 'docker/healthcheck.mjs'],
  ['proto/package.json', 'proto/package.json'],
  ['proto/tsconfig.json', 'proto/tsconfig.json'],
  ['proto/env.proto', 'proto/env.proto'],
  ['proto/src', 'proto/src'],
  ['env-server/package.json', 'env-server/package.json'],
  ['env-server/tsconfig.json', 'env-server/tsconfig.json'],
  ['env-server/bin', 'env-server/bin'],
  ['env-server/src', 'env-server/src'],
];

/** Top-level paths the bundle owns in <dir>; replaced on every run. */
export const BUNDLE_ROOTS = [...new Set(ENTRIES.map(([to]) => to.split('/')[0]))];

function keep(source) {
  const name = basename(source);
  return name !== 'node_modules' && name !== 'dist' && !name.endsWith('.test.ts') && !name.endsWith('.tsbuildinfo');
}

/** Writes the bundle into `outDir` (created when missing); returns the bundle paths written. */
export function writeSpaceBundle(outDir, from = repo) {
  const out = resolve(outDir);
  mkdirSync(out, { recursive: true });
  for (const root of BUNDLE_ROOTS) rmSync(join(out, root), { recursive: true, force: true });
  for (const [to, source] of ENTRIES) {
    mkdirSync(dirname(join(out, to)), { recursive: true });
    cpSync(join(from, source), join(out, to), { recursive: true, filter: keep });
  }
  return ENTRIES.map(([to]) => to);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const outDir = process.argv[2];
  if (!outDir || outDir.startsWith('-')) {
    console.error('usage: node scripts/space-bundle.mjs <dir>   (e.g. a clone of your Space repository)');
    process.exit(2);
  }
  writeSpaceBundle(outDir);
  console.error(`[space-bundle] wrote ${resolve(outDir)}: push it to a Docker Space (docs/deploy.md)`);
}
