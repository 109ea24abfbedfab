import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runInProcess } from './run-cli.js';

// `grpo --env` checks its --task names against a real env server's task list (the env server's
// bin as a process) before it waits for Redis; Redis here is a closed port, so a run that gets
// past the check ends at once with the Redis line.
const ENV_BIN = fileURLToPath(new URL('../../../env-server/bin/cli.js', import.meta.url));
const ENV_BUILT = fileURLToPath(new URL('../../../env-server/dist/cli/main.js', import.meta.url));
let envServer: ChildProcess;
let envUrl: string;
let root: string;

async function closedPort(): Promise<number> {
  const bound = createServer();
  await new Promise<void>((resolve) => bound.listen(0, '127.0.0.1', resolve));
  const port = (bound.address() as { port: number }).port;
  await new Promise((resolve) => bound.close(resolve));
  return port;
}

beforeAll(async () => {
  if (!existsSync(ENV_BUILT)) throw new Error(`${ENV_BUILT} is missing: build first (npm run build)`);
  root = mkdtempSync(join(tmpdir(), 'gauntlet-grpo-tasks-'));
  envServer = spawn(
    process.execPath,
    [
      ENV_BIN,
      'serve',
      '--port',
      '0',
      '--grpc-port',
      'off',
      '--host',
      '127.0.0.1',
      '--max-sessions',
      '1',
      '--warm',
      '0',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let printed = '';
  envUrl = await new Promise<string>((resolve, reject) => {
    const read = (chunk: Buffer) => {
      printed += chunk.toString();
      const url = /listening on (http:\/\/\S+)/.exec(printed)?.[1];
      if (url) resolve(url);
    };
    envServer.stdout!.on('data', read);
    envServer.stderr!.on('data', read);
    envServer.on('exit', () => reject(new Error(`env server exited:\n${printed}`)));
  });
}, 120_000);

afterAll(async () => {
  if (envServer && envServer.exitCode === null) {
    const exited = new Promise((resolve) => envServer.once('exit', resolve));
    envServer.kill('SIGTERM');
    await exited;
  }
  if (root) rmSync(root, { recursive: true, force: true });
});

const grpo = async (dir: string, ...flags: string[]) =>
  runInProcess([
    'grpo',
    '--redis',
    `redis://127.0.0.1:${await closedPort()}`,
    '--redis-timeout-ms',
    '500',
    '--output-dir',
    join(root, dir),
    ...flags,
  ]);

describe('grpo checks --task against the env servers at start', () => {
  it('an unknown task is a usage error (exit 2) naming the closest task, before Redis is tried', async () => {
    const run = await grpo('typo', '--env', envUrl.replace('http', 'ws'), '--task', 'miniwob.click-tset=2');
    expect(run.code).toBe(2);
    expect(run.stderr.split('\n')[0]).toMatch(
      /^gauntlet-trainer grpo: --task "miniwob\.click-tset" \(did you mean miniwob\.click-test\?\): not served by the env servers \(\d+ tasks; /,
    );
    expect(run.stderr).not.toMatch(/Redis/);
  }, 60_000);

  it('known tasks (bare or full) pass the check and the run goes on (here to the Redis it cannot reach)', async () => {
    const run = await grpo('known', '--env', envUrl, '--task', 'miniwob.click-test', '--task', 'enter-text');
    expect(run.code).toBe(1);
    expect(run.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(/^gauntlet-trainer grpo: cannot reach Redis at /),
    ]);
  }, 60_000);

  it('an env server not up yet leaves the names unchecked, says so in one line, and starts as before', async () => {
    const down = `ws://127.0.0.1:${await closedPort()}`;
    const run = await grpo('down', '--env', down, '--task', 'miniwob.click-tset');
    expect(run.code).toBe(1);
    expect(run.stderr.trim().split('\n')).toEqual([
      `grpo: task names not checked (${down}: ECONNREFUSED); starting anyway`,
      expect.stringMatching(/^gauntlet-trainer grpo: cannot reach Redis at /),
    ]);
  }, 60_000);
});
