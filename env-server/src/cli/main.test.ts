import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from './main.js';

/** `gauntlet-env <argv>` in this process with only `env` for its environment; what it printed. */
async function run(argv: string[], env: NodeJS.ProcessEnv = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const io = { out: (line: string) => out.push(line), err: (line: string) => err.push(line) };
  const code = await main(argv, { io, env, signal: new AbortController().signal });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

describe('gauntlet-env serve and tasks flags', () => {
  it('come from SETTINGS: --help lists each with every environment variable it reads', async () => {
    const help = await run(['tasks', '--help']);
    expect(help.code).toBe(0);
    expect(help.out).toMatch(
      /--port PORT +HTTP\/WebSocket port; 0 picks a free one \(default: 8000; env PORT, BROWSERGYM_PORT\)/,
    );
    expect(help.out).toMatch(/--grpc-port PORT\|off +.*\(default: 50051; env GRPC_PORT\)/);
    expect(help.out).toMatch(/--headless +run Chromium headless \(default: true; env BROWSERGYM_HEADLESS\)/);
    expect(help.out).toMatch(/--settle MODE +.*\(one of smart, browsergym; default: smart; env GAUNTLET_SETTLE\)/);
    expect((await run(['help'])).out).toMatch(/^Usage: gauntlet-env \[command\] \[options\]/);
  });

  it('check values where they come from, naming the flag, the config file or the variable (exit 2)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gauntlet-env-cli-'));
    const file = join(dir, 'serve.json');
    writeFileSync(file, JSON.stringify({ 'max-sessions': 0 }));
    expect(await run(['tasks', '--config', file])).toMatchObject({
      code: 2,
      err: `gauntlet-env tasks: --config ${file}: --max-sessions must be an integer ≥ 1 (got 0) (see --help)`,
    });
    expect(await run(['tasks'], { MAX_CONCURRENT_ENVS: 'many' })).toMatchObject({
      code: 2,
      err: 'gauntlet-env tasks: MAX_CONCURRENT_ENVS must be an integer ≥ 1 (got "many") (see --help)',
    });
    expect(await run(['tasks'], { GRPC_PORT: '70000' })).toMatchObject({
      code: 2,
      err: 'gauntlet-env tasks: GRPC_PORT must be a port number (0-65535) or off (got "70000") (see --help)',
    });
    expect(await run(['tasks'], { GAUNTLET_SETTLE: 'fast' })).toMatchObject({
      code: 2,
      err: 'gauntlet-env tasks: GAUNTLET_SETTLE must be one of smart, browsergym (got "fast") (see --help)',
    });
    // resolveConfig's own checks (settings that go together) are usage errors too.
    expect(await run(['tasks', '--grpc-tls-cert', '/c.pem'])).toMatchObject({
      code: 2,
      err: expect.stringMatching(/^gauntlet-env tasks: --grpc-tls-cert and --grpc-tls-key go together/),
    });
  });

  it('list the tasks serve would offer (a switch set to yes is read as on)', async () => {
    const listed = await run(['tasks'], { BROWSERGYM_HEADLESS: 'yes' });
    expect(listed.code).toBe(0);
    expect(listed.out).toMatch(/^miniwob\.click-test\t/m);
    expect(listed.out).toMatch(/^gauntlet\.gauntlet\t/m);
  });
});
