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
    expect(run.stderr).toMatch(/^GAUNTLET_REQUIRE_TOKEN=1 but no bearer token is set/);
    expect(run.stdout).not.toMatch(/listening/);
  });

  it('is documented in --help next to the token and host flags', () => {
    const help = cli(['--help']).stdout;
    expect(help).toMatch(/--token <v>\s+require "Authorization: Bearer <token>"/);
    expect(help).toMatch(/--host <v>\s+interface to listen on \(default 127\.0\.0\.1/);
    expect(help).toMatch(/serve listens on 127\.0\.0\.1 unless --host \/ HOST says otherwise/);
    expect(help).toMatch(/GAUNTLET_REQUIRE_TOKEN=1, serve refuses to start without a token/);
  });
});
