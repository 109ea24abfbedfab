import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { writeSpaceBundle } from './space-bundle.mjs';

const repo = fileURLToPath(new URL('..', import.meta.url));
const dirs = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function freshDir() {
  const dir = mkdtempSync(join(tmpdir(), 'gauntlet-space-'));
  dirs.push(dir);
  return dir;
}

function filesUnder(dir) {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)));
}

/** The instructions of a Dockerfile from `FROM … AS build-tools` to the runtime's healthcheck copy, comments dropped. */
function sharedBuild(path) {
  const lines = readFileSync(join(repo, path), 'utf8').split('\n');
  const start = lines.findIndex((line) => line.startsWith('FROM ${BASE_IMAGE} AS build-tools'));
  const end = lines.findIndex((line) => line.startsWith('COPY docker/healthcheck.mjs'));
  return lines
    .slice(start, end + 1)
    .filter((line) => line.trim() && !line.startsWith('#'))
    .map((line) => line.replace(/ AS (runtime|space)$/, ' AS <final>'));
}

describe('the Hugging Face Space bundle', () => {
  it('is a Docker Space on port 8000 tagged openenv', () => {
    const dir = freshDir();
    writeSpaceBundle(dir);
    const readme = readFileSync(join(dir, 'README.md'), 'utf8');
    // Hugging Face reads the YAML front matter; ours keeps to plain `key: value` lines and one list.
    const front = /^---\n([\s\S]*?)\n---\n/.exec(readme)?.[1] ?? '';
    expect(front).toMatch(/^sdk: docker$/m);
    expect(front).toMatch(/^app_port: 8000$/m);
    // The front matter declares the license; the file itself travels with the bundle.
    expect(front).toMatch(/^license: apache-2.0$/m);
    expect(readFileSync(join(dir, 'LICENSE'), 'utf8')).toContain('Apache License');
    expect(/^tags:\n((?: {2}- .+\n?)+)/m.exec(front)?.[1]).toMatch(/^ {2}- openenv$/m);
    const dockerfile = readFileSync(join(dir, 'Dockerfile'), 'utf8');
    expect(dockerfile).toMatch(/^EXPOSE 8000$/m);
    expect(dockerfile).toMatch(/^USER 1000:1000$/m);
  });

  it('holds the sources the Dockerfile builds, without tests, builds or node_modules', () => {
    const dir = freshDir();
    writeSpaceBundle(dir);
    const files = filesUnder(dir);
    for (const needed of [
      'Dockerfile',
      'package-lock.json',
      'tsconfig.base.json',
      'docker/healthcheck.mjs',
      'proto/env.proto',
      'proto/src/index.ts',
      'env-server/bin/cli.js',
      'env-server/src/cli/main.ts',
    ]) {
      expect(files).toContain(needed);
    }
    expect(files.filter((file) => /\.test\.ts$|(^|\/)(node_modules|dist|test)\//.test(file))).toEqual([]);
    expect(files.some((file) => /^(trainer|rollout-worker|bench)\//.test(file))).toBe(false);
  });

  it('replaces its own paths in a Space clone and leaves the rest alone', () => {
    const dir = freshDir();
    mkdirSync(join(dir, '.git'));
    writeFileSync(join(dir, '.git', 'HEAD'), 'ref: refs/heads/main\n');
    mkdirSync(join(dir, 'proto', 'src'), { recursive: true });
    writeFileSync(join(dir, 'proto', 'src', 'deleted-upstream.ts'), 'export {};\n');
    writeFileSync(join(dir, 'NOTES.md'), 'mine\n');
    writeSpaceBundle(dir);
    expect(existsSync(join(dir, 'proto', 'src', 'deleted-upstream.ts'))).toBe(false);
    expect(readFileSync(join(dir, '.git', 'HEAD'), 'utf8')).toBe('ref: refs/heads/main\n');
    expect(readFileSync(join(dir, 'NOTES.md'), 'utf8')).toBe('mine\n');
  });

  it('builds the server exactly as Dockerfile.env does', () => {
    const space = sharedBuild('space/Dockerfile');
    expect(space.length).toBeGreaterThan(20);
    expect(space).toEqual(sharedBuild('Dockerfile.env'));
  });
});
