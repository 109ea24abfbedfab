import { ConfigError, type ServerConfig } from '../config.js';

/**
 * `GAUNTLET_REQUIRE_TOKEN=1` is the switch for deployments reachable from a network (the Docker
 * images read it): without a bearer token the server refuses to start rather than serve an open
 * browser to anyone. Throws a ConfigError naming the fix; returns quietly otherwise.
 */
export function assertTokenIfRequired(config: ServerConfig, env: NodeJS.ProcessEnv = process.env): void {
  if (!tokenRequired(env.GAUNTLET_REQUIRE_TOKEN) || config.bearerToken) return;
  throw new ConfigError(
    'GAUNTLET_REQUIRE_TOKEN=1 but no bearer token is set: pass --token <secret> or set GAUNTLET_TOKEN; ' +
      'clients then send "Authorization: Bearer <secret>" (the SDK: createEnvClient(url, { token })).',
  );
}

function tokenRequired(raw: string | undefined): boolean {
  const text = (raw ?? '').trim();
  if (/^(1|true|yes|on)$/i.test(text)) return true;
  if (/^(0|false|no|off|)$/i.test(text)) return false;
  throw new ConfigError(`GAUNTLET_REQUIRE_TOKEN must be 1 or 0 (got ${JSON.stringify(text.slice(0, 40))})`);
}
