import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { createEnvClient } from '@gauntlet/proto/client';
import { startServerProcess } from '../support/server-process.js';

const BIN = fileURLToPath(new URL('../../bin/cli.js', import.meta.url));
const PAGES = fileURLToPath(new URL('../fixtures/miniwob-plusplus/miniwob', import.meta.url));
// These tests name their pages by flag: a MiniWoB++ copy set in the environment (MINIWOB_URL, as
// for the rest of the suite) must not reach the server too, which would refuse both at once.
const ENV = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('MINIWOB_')));
const run = (...args: string[]) =>
  spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', timeout: 60_000, env: ENV });

it('tasks --miniwob-dir lists the real pages as miniwob.<name>, real-time ones flagged, ours aside', () => {
  const listed = run('tasks', '--miniwob-dir', PAGES);
  expect(listed.status).toBe(0);
  expect(listed.stdout).toMatch(/^miniwob\.click-test\t/m);
  expect(listed.stdout).toMatch(/^miniwob\.chase-circle \[realtime\]\t/m);
  expect(listed.stdout).toMatch(/^miniwob-builtin\.click-test\t/m);
});

it('bad MiniWoB++ settings and an unknown benchmark are usage errors (exit 2), said plainly', () => {
  const missing = run('serve', '--port', '0', '--grpc-port', '0', '--miniwob-dir', '/no/such/miniwob');
  expect(missing.status).toBe(2);
  expect(missing.stderr).toMatch(/--miniwob-dir "\/no\/such\/miniwob" is not a folder/);
  const scheme = run('tasks', '--miniwob-url', 'ftp://example.org/miniwob/');
  expect(scheme.status).toBe(2);
  expect(scheme.stderr).toMatch(/MINIWOB_URL must be an http\(s\) or file URL/);
  const benchmark = run('serve', '--port', '0', '--grpc-port', '0', '--benchmark', 'webarena');
  expect(benchmark.status).toBe(2);
  expect(benchmark.stderr).toMatch(/webarena.*is not served here/);
});

it('serve --miniwob-dir --benchmark miniwob --task click-test: a reset without a task name plays the real page', async () => {
  const server = await startServerProcess(
    ['--miniwob-dir', PAGES, '--benchmark', 'miniwob', '--task', 'click-test'],
    { port: 0, grpcPort: 0 },
    ENV,
  );
  const env = createEnvClient(server.url);
  try {
    const first = await env.reset({ seed: 42 });
    expect(first.observation.url).toBe('http://tasks.gauntlet.test/miniwob-plusplus/miniwob/click-test.html');
    const bid = /\[(\w+)\] button 'Click Me!'/.exec(first.observation.axtree_txt)![1];
    expect(await env.step(`click('${bid}')`)).toMatchObject({ reward: 1, done: true });
  } finally {
    await env.close().catch(() => undefined);
    await server.stop();
  }
});
