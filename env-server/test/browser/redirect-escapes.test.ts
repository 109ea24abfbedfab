import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEnvClient, type EnvClient } from '@gauntlet/proto/client';
import type { StepResult } from '@gauntlet/proto';
import type { RunningServer } from '../../src/server/app.js';
import { startTestServer } from '../support/server.js';
import { startBystander, startRedirectSite, type Bystander, type RedirectSite } from '../support/redirect-site.js';

/**
 * The operator allowed one site, and that site sends the browser elsewhere: to the env server's
 * own /metrics, or to another service on this machine. Every way a page can navigate must meet
 * the origin policy at every hop; a refused hop is an action error and the page stays put.
 */
let site: RedirectSite;
let bystander: Bystander;
let server: RunningServer;
let env: EnvClient;

beforeAll(async () => {
  [site, bystander] = await Promise.all([startRedirectSite(), startBystander()]);
  server = await startTestServer({ allowedOrigins: [site.origin] });
  env = createEnvClient(server.url, { validateReplies: true });
});
afterAll(async () => {
  await env?.close();
  await server?.close();
  await Promise.all([site?.close(), bystander?.close()]);
});

const NAV = { subsets: ['bid', 'nav', 'tab'] };

/** Loopback targets the allowed site points at: the env server itself and a bystander, by every name. */
function targets(): string[] {
  const port = bystander.port;
  return [
    `${server.url}/metrics`,
    `http://localhost:${port}/`,
    `http://[::1]:${port}/`,
    `http://127.0.0.1:${port}/`,
    `https://127.0.0.1:${port}/`,
  ];
}

/** A fresh episode on the allowed site's home page. */
async function onAllowedHome(): Promise<void> {
  await env.reset({ task_name: 'click-test', seed: 1, action_set: NAV });
  const home = await env.step(`goto('${site.origin}/')`);
  expect(home.observation.last_action_error).toBe(false);
  expect(home.observation.url).toBe(`${site.origin}/`);
}

function expectRefused(result: StepResult, target: string): void {
  const { observation } = result;
  expect(observation.last_action_error, target).toBe(true);
  expect(observation.error, target).toMatch(/^PermissionError: Navigation to .* is blocked/);
  expect(observation.error, target).toContain(new URL(target).host);
  expect(JSON.stringify(observation), target).not.toMatch(/gauntlet_env_|bystander secret/);
}

describe('navigations that leave the allowed site', () => {
  it('a 302 from goto is refused at the hop, for every loopback name, and the page stays', async () => {
    for (const target of targets()) {
      await onAllowedHome();
      const result = await env.step(`goto('${site.origin}/redirect?to=${encodeURIComponent(target)}')`);
      expectRefused(result, target);
      if (target.startsWith('http:')) expect(result.observation.url, target).toBe(`${site.origin}/`);
    }
    expect(bystander.connections()).toBe(0);
  });

  it.each(['meta', 'script', 'frame'])('a redirect reached by %s is refused too', async (way) => {
    for (const target of [`${server.url}/metrics`, `http://localhost:${bystander.port}/`]) {
      await onAllowedHome();
      const result = await env.step(`goto('${site.origin}/${way}?to=${encodeURIComponent(target)}')`);
      // A meta refresh navigates after the page has loaded: its refused hop may come after the
      // step answered. Refused either way; the step reports it when it saw it.
      if (way !== 'meta' || result.observation.last_action_error) expectRefused(result, target);
      expect(JSON.stringify(result.observation)).not.toMatch(/gauntlet_env_|bystander secret/);
    }
    expect(bystander.connections()).toBe(0);
  });

  it("a popup's redirect is refused, reported by that step or, when the popup loads after it settled, the next", async () => {
    for (const target of [`${server.url}/metrics`, `http://localhost:${bystander.port}/`]) {
      await onAllowedHome();
      const opened = await env.step(`goto('${site.origin}/popup?to=${encodeURIComponent(target)}')`);
      const reported = opened.observation.last_action_error ? opened : await env.step('noop(0)');
      expectRefused(reported, target);
      expect(JSON.stringify(opened.observation)).not.toMatch(/gauntlet_env_|bystander secret/);
    }
    expect(bystander.connections()).toBe(0);
  });

  it('a redirect that stays on allowed origins is followed', async () => {
    await onAllowedHome();
    const result = await env.step(`goto('${site.origin}/redirect?to=${encodeURIComponent(`${site.origin}/?landed`)}')`);
    expect(result.observation.last_action_error).toBe(false);
    expect(result.observation.url).toBe(`${site.origin}/?landed`);
  });
});
