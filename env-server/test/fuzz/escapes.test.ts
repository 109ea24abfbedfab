import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEnvClient, type TransportName } from '@gauntlet/proto/client';
import { startServerProcess, type ServerProcess } from '../support/server-process.js';
import { startBystander, startRedirectSite, type Bystander, type RedirectSite } from '../support/redirect-site.js';
import { escapeCases } from './escape-cases.js';
import { internalText } from './leaks.js';

// The real `gauntlet-env serve` with an allowed site that redirects and agent-written data: pages
// on: every escape is refused on every transport, and nothing on loopback ever hears from the page.
let site: RedirectSite;
let bystander: Bystander;
let server: ServerProcess;

beforeAll(async () => {
  [site, bystander] = await Promise.all([startRedirectSite(), startBystander()]);
  server = await startServerProcess(['--max-sessions', '4', '--allow-origin', site.origin, '--allow-data-urls']);
});
afterAll(async () => {
  await server?.stop();
  await Promise.all([site?.close(), bystander?.close()]);
});

function urlOf(transport: TransportName): string {
  return transport === 'grpc' ? server.grpcUrl : transport === 'ws' ? server.url.replace(/^http/, 'ws') : server.url;
}

/** What the env server or a bystander would show if a page had reached them. */
const REACHED = /gauntlet_env_|bystander secret/;

describe('navigation escapes under the origin policy', () => {
  it.each(['http', 'ws', 'grpc'] as TransportName[])(
    '%s: every hop out of the allowlist is a PermissionError, fast, and the session goes on',
    async (transport) => {
      const env = createEnvClient(urlOf(transport), { validateReplies: true });
      try {
        for (const { action, error, afterLoad } of escapeCases(site.origin, server.url, bystander.port)) {
          await env.reset({ task_name: 'click-test', seed: 3, action_set: { subsets: ['bid', 'nav', 'tab'] } });
          const started = performance.now();
          const { observation } = await env.step(action, { timeoutMs: 20_000 });
          const label = `${transport} ${action.slice(0, 120)}`;
          if (!afterLoad || observation.last_action_error) {
            expect(observation.last_action_error, label).toBe(error !== undefined);
            if (error) expect(observation.error, label).toMatch(error);
          }
          expect(internalText(observation.error), observation.error).toBeUndefined();
          expect(JSON.stringify(observation), label).not.toMatch(REACHED);
          expect(performance.now() - started, label).toBeLessThan(10_000);
          const next = await env.step('noop(100)', { timeoutMs: 20_000 });
          expect(JSON.stringify(next.observation), label).not.toMatch(REACHED);
        }
      } finally {
        await env.close();
      }
      expect(bystander.connections()).toBe(0);
    },
  );

  it('afterwards: the same process, no session left, no unexpected error', async () => {
    const metrics = await (await fetch(`${server.url}/metrics`)).text();
    expect(metrics).toMatch(/^gauntlet_env_sessions_active 0$/m);
    expect(metrics).toMatch(/^gauntlet_env_unexpected_errors 0$/m);
    expect(server.child.exitCode).toBeNull();
  });
});
