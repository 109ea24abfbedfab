import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const BUILT = new URL('../../dist/cli/index.js', import.meta.url);

/**
 * A bin whose entry is runBin: `flood` writes until stdout breaks, `wait` says "ready" and
 * says "draining" at the first interrupt and keeps running (a drain that never ends).
 */
const SCRIPT = `
import { runBin } from ${JSON.stringify(BUILT.href)};
const flood = { name: 'flood', summary: 's', description: 'd', options: {},
  async run({ io }) { for (;;) { io.out('x'.repeat(100)); await new Promise(setImmediate); } } };
const wait = { name: 'wait', summary: 's', description: 'd', options: {}, drains: true,
  run: ({ io, signal }) => {
    signal.addEventListener('abort', () => io.out('draining'));
    io.out('ready');
    return new Promise(() => setInterval(() => {}, 1000));
  } };
await runBin({ name: 'demo', description: 'd', commands: [flood, wait] }, process.argv.slice(1));
`;

function start(command: string) {
  if (!existsSync(fileURLToPath(BUILT)))
    throw new Error(`${fileURLToPath(BUILT)} is missing: build first (npx tsc -b proto)`);
  const child = spawn(process.execPath, ['--input-type=module', '-e', SCRIPT, command], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = once(child, 'exit').then(([code]) => ({ code: code as number | null, stderr }));
  return { child, exited };
}

describe('runBin', () => {
  it('a reader that closes stdout early (| head) ends the bin quietly with exit 0', async () => {
    const { child, exited } = start('flood');
    await once(child.stdout, 'data');
    child.stdout.destroy();
    expect(await exited).toEqual({ code: 0, stderr: '' });
  });

  it('a second SIGINT exits 130 at once, leaving the command behind', async () => {
    const { child, exited } = start('wait');
    await once(child.stdout, 'data');
    child.kill('SIGINT');
    await once(child.stdout, 'data'); // "draining": the first one arrived (two at once may merge into one)
    child.kill('SIGINT');
    expect(await exited).toEqual({ code: 130, stderr: 'demo wait: interrupted again; stopping now\n' });
  });
});
