import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ConfigError, resolveConfig } from '../../src/config.js';
import { assertTokenIfRequired } from '../../src/cli/token-guard.js';

const CLI = fileURLToPath(new URL('../../bin/cli.js', import.meta.url));

/** Runs the real CLI with only the variables given (no inherited HOST/GAUNTLET_* leaking in). */
function cli(args: string[], env: Record<string, string> = {}) {
  return spawnSync(process.execPath, [CLI, ...args], {
    encoding: 'utf8',
    timeout: 30_000,
    env: { PATH: process.env.PATH ?? '', ...env },
  });
}

describe('serve listens on loopback unless told otherwise', () => {
  it('defaults to 127.0.0.1; HOST and --host open it up, the flag winning', () => {
    expect(resolveConfig({}, {}).host).toBe('127.0.0.1');
    expect(resolveConfig({}, { HOST: '0.0.0.0' }).host).toBe('0.0.0.0');
    expect(resolveConfig({ host: '::' }, { HOST: '0.0.0.0' }).host).toBe('::');
  });
});

describe('GAUNTLET_REQUIRE_TOKEN', () => {
  const config = resolveConfig({}, {});

  it('refuses a config without a bearer token, naming both ways to give one', () => {
    for (const value of ['1', 'true', 'YES', ' on ']) {
      expect(() => assertTokenIfRequired(config, { GAUNTLET_REQUIRE_TOKEN: value })).toThrow(ConfigError);
    }
    expect(() => assertTokenIfRequired(config, { GAUNTLET_REQUIRE_TOKEN: '1' })).toThrow(
      /--token <secret> or set GAUNTLET_TOKEN/,
    );
    // An empty GAUNTLET_TOKEN is no token.
    expect(() =>
      assertTokenIfRequired(resolveConfig({}, { GAUNTLET_TOKEN: '' }), { GAUNTLET_REQUIRE_TOKEN: '1' }),
    ).toThrow(ConfigError);
  });

  it('accepts a token from the flag or the environment', () => {
    expect(() =>
      assertTokenIfRequired(resolveConfig({ token: 's3cret' }, {}), { GAUNTLET_REQUIRE_TOKEN: '1' }),
    ).not.toThrow();
    expect(() =>
      assertTokenIfRequired(resolveConfig({}, { GAUNTLET_TOKEN: 's3cret' }), { GAUNTLET_REQUIRE_TOKEN: '1' }),
    ).not.toThrow();
  });

  it('changes nothing when unset or off, and rejects a value it cannot read', () => {
    for (const value of [undefined, '', '0', 'false', 'off']) {
      expect(() => assertTokenIfRequired(config, { GAUNTLET_REQUIRE_TOKEN: value })).not.toThrow();
    }
    expect(() => assertTokenIfRequired(config, { GAUNTLET_REQUIRE_TOKEN: 'maybe' })).toThrow(
      /must be 1 or 0 \(got "maybe"\)/,
    );
  });

  it('makes `gauntlet-env serve` exit 2 with the reason before opening a port or a browser', () => {
    const run = cli(['serve', '--port', '0', '--grpc-port', '0'], { GAUNTLET_REQUIRE_TOKEN: '1' });
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/^gauntlet-env serve: GAUNTLET_REQUIRE_TOKEN=1 but no bearer token is set/);
    expect(run.stdout).not.toMatch(/listening/);
  });

  it('is documented in serve --help next to the token and host flags', () => {
    const help = cli(['serve', '--help']).stdout;
    expect(help).toMatch(/--token TOKEN\s+require "Authorization: Bearer <token>".*\(env GAUNTLET_TOKEN\)/);
    expect(help).toMatch(/--host HOST\s+interface to listen on .*\(default: 127\.0\.0\.1; env HOST\)/);
    expect(help).toMatch(/serve listens on 127\.0\.0\.1 unless --host \/ HOST says otherwise/);
    expect(help).toMatch(/GAUNTLET_REQUIRE_TOKEN=1, serve refuses to start without a token/);
  });
});

describe('the gauntlet-env command line', () => {
  it('serves by default: no command, or flags first, is serve (its flag errors exit 2 on one line)', () => {
    const flagsFirst = cli(['--port', 'x']);
    expect(flagsFirst.status).toBe(2);
    expect(flagsFirst.stderr).toBe(
      'gauntlet-env serve: --port must be an integer ≥ 0 and ≤ 65535 (got "x") (see --help)\n',
    );
    // A setting read from its second variable name, and named when its value is bad.
    const fromEnv = cli([], { BROWSERGYM_PORT: 'x' });
    expect(fromEnv.status).toBe(2);
    expect(fromEnv.stderr).toMatch(/^gauntlet-env serve: BROWSERGYM_PORT must be an integer/);
    const unknown = cli(['serve', '--prot', '1']);
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toBe('gauntlet-env serve: unknown flag --prot (see --help)\n');
  });

  it('--help lists the commands; an unknown command is exit 2', () => {
    const help = cli(['--help']);
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/^Usage: gauntlet-env \[command\] \[options\]/);
    expect(help.stdout).toMatch(/serve +Start the env server .*\(the default command\)/);
    for (const command of ['tasks', 'solve', 'collect']) expect(help.stdout).toMatch(new RegExp(`^  ${command} `, 'm'));
    const wrong = cli(['serv']);
    expect(wrong.status).toBe(2);
    expect(wrong.stderr).toMatch(/unknown command "serv" \(did you mean serve\?\)/);
  });
});
