import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEnvClient, type EnvClient } from '@gauntlet/proto/client';
import type { RunningServer } from '../../src/server/app.js';
import { startTestServer } from '../support/server.js';
import { startBystander, type Bystander } from '../support/redirect-site.js';

/**
 * With --allow-data-urls the agent writes the page. Whatever its script opens, loopback stays out
 * of reach (a Worker's WebSocket, WebRTC's TURN over TCP), and a file: frame is refused quickly
 * instead of leaving every later step to hit its deadline.
 */
let bystander: Bystander;
let server: RunningServer;
let env: EnvClient;

beforeAll(async () => {
  bystander = await startBystander();
  server = await startTestServer({ allowDataUrls: true });
  env = createEnvClient(server.url, { validateReplies: true });
});
afterAll(async () => {
  await env?.close();
  await server?.close();
  await bystander?.close();
});

/** goto of a data: page holding `html` (quotes escaped for the action string). */
function gotoPage(html: string): string {
  return `goto('data:text/html,${encodeURIComponent(html).replace(/'/g, '%27')}')`;
}

/** A page whose script writes its finding into <p id=r>, starting with `prefix`. */
function reporting(script: string): string {
  return `<p id=r>waiting</p><script>const report = (text) => (document.getElementById('r').textContent = text);${script}</script>`;
}

/** Steps (short noops) until the page reported, and returns what it said. */
async function reportOf(prefix: string): Promise<string> {
  for (let step = 0; step < 40; step += 1) {
    const { observation } = await env.step('noop(250)');
    const said = new RegExp(`StaticText '(${prefix}[^']*)'`).exec(observation.axtree_txt)?.[1];
    if (said) return said;
  }
  throw new Error(`the page never reported ${prefix}`);
}

async function freshEpisode(): Promise<void> {
  await env.reset({ task_name: 'click-test', seed: 1, action_set: { subsets: ['bid', 'nav'] } });
}

describe('data: pages the agent wrote', () => {
  it("cannot reach loopback through a Worker's WebSocket", async () => {
    await freshEpisode();
    const worker = `const s = new WebSocket('ws://127.0.0.1:${bystander.port}/'); s.onopen = () => postMessage('ws open'); s.onclose = (e) => postMessage('ws closed ' + e.code);`;
    const script = `const w = new Worker(URL.createObjectURL(new Blob([${JSON.stringify(worker)}]))); w.onmessage = (e) => report(e.data);`;
    expect((await env.step(gotoPage(reporting(script)))).observation.last_action_error).toBe(false);
    expect(await reportOf('ws ')).toMatch(/^ws closed/);
    expect(bystander.connections()).toBe(0);
  });

  it('cannot reach loopback through a TURN server over TCP', async () => {
    await freshEpisode();
    const script = `(async () => {
      const peer = new RTCPeerConnection({ iceServers: [{ urls: 'turn:127.0.0.1:${bystander.port}?transport=tcp', username: 'u', credential: 'p' }] });
      peer.createDataChannel('x');
      peer.onicegatheringstatechange = () => peer.iceGatheringState === 'complete' && report('turn gathered');
      await peer.setLocalDescription(await peer.createOffer());
    })();`;
    expect((await env.step(gotoPage(reporting(script)))).observation.last_action_error).toBe(false);
    expect(await reportOf('turn ')).toBe('turn gathered');
    expect(bystander.connections()).toBe(0);
  });

  it('gets a file: frame refused at once, and the next steps are quick', async () => {
    await freshEpisode();
    const started = performance.now();
    const framed = await env.step(gotoPage('<p>framed</p><iframe src="file:///etc/passwd"></iframe>'), {
      timeoutMs: 60_000,
    });
    expect(framed.observation.last_action_error).toBe(true);
    expect(framed.observation.error).toBe('PermissionError: Navigation to file: URLs is blocked');
    const next = await env.step('noop(0)', { timeoutMs: 60_000 });
    expect(next.observation.last_action_error).toBe(false);
    expect(next.observation.axtree_txt).toContain('framed');
    // The deadline it used to hit is 30 s per step; a loaded CI machine still does both in seconds.
    expect(performance.now() - started).toBeLessThan(15_000);
  });
});
