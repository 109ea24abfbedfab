import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EpisodeRecord, TurnRecord } from '../src/report/episode-record.js';
import { startViewServer, type ViewServer } from '../src/view/view-server.js';
import { openViewSource } from '../src/view/view-source.js';
import { agent } from './support/agent.js';

// A run folder as `run --screenshots` writes it, with a secret next to it that must stay unreachable.
const base = mkdtempSync(join(tmpdir(), 'agent-view-'));
const dir = join(base, 'run');
const PNG = Buffer.from('89504e470d0a1a0a0000', 'hex');

function turn(index: number, action: string, extra: Partial<TurnRecord> = {}): TurnRecord {
  return {
    index,
    actor: 'model',
    observation: { url: 'http://x/', chars: 1 },
    text: `<think>…</think> ${action}`,
    action,
    parse_error: false,
    env_error: '',
    reward: 0,
    done: false,
    model_calls: 1,
    tokens_in: 1,
    tokens_out: 1,
    trimmed_exchanges: 0,
    policy_ms: 1,
    step_ms: 1,
    screenshot: `screenshots/0/${index}.png`,
    axtree: `observations/0/${index}.txt`,
    marks: [],
    ...extra,
  };
}

const record: EpisodeRecord = {
  episode_id: 'e0',
  task: 'click-button',
  seed: 3,
  outcome: 'fail',
  reward: 0,
  error: { name: 'PolicyGaveUpError', message: 'gave up' },
  wall_ms: 5,
  started_at: new Date(0).toISOString(),
  final_task_info: {},
  turns: [turn(0, "click('7')"), turn(1, 'noop()', { parse_error: true, env_error: 'boom', done: true })],
};

let server: ViewServer;
beforeAll(async () => {
  for (const sub of ['screenshots/0', 'observations/0']) mkdirSync(join(dir, sub), { recursive: true });
  writeFileSync(join(base, 'secret.png'), 'secret');
  writeFileSync(join(base, 'secret.txt'), 'secret');
  symlinkSync(join(base, 'secret.png'), join(dir, 'screenshots/0/link.png'));
  writeFileSync(join(dir, 'screenshots/0/0.png'), PNG);
  writeFileSync(join(dir, 'observations/0/0.txt'), "RootWebArea 'a'\n\t[7] button 'Go'\n\tStaticText 'x'");
  writeFileSync(join(dir, 'observations/0/1.txt'), "RootWebArea 'a'\n\t[7] button 'Go'\n\tStaticText 'done'");
  // The second line is still being written: the viewer skips it.
  writeFileSync(join(dir, 'episodes.jsonl'), `${JSON.stringify(record)}\n{"episode_id":"e1","tas`);
  server = await startViewServer(openViewSource(dir));
});
afterAll(() => server?.close());

/** A raw GET (node's http does not tidy `..` away, as a browser would). */
function get(path: string, host?: string): Promise<{ status: number; type: string; body: Buffer }> {
  const url = new URL(server.url);
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, path, headers: host ? { host } : {} }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode!, type: String(res.headers['content-type']), body: Buffer.concat(chunks) }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

describe('gauntlet-agent view server', () => {
  it('serves the page bound to 127.0.0.1, the episode list and each step with its AXTree diff', async () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    const page = await get('/');
    expect(page.type).toMatch(/text\/html/);
    expect(page.body.toString()).not.toMatch(/<script[^>]+src=|<link[^>]+href=|https?:\/\/(?!www\.w3)/);
    const list = JSON.parse((await get('/api/episodes')).body.toString());
    expect(list).toEqual([
      {
        index: 0,
        id: 'e0',
        task: 'click-button',
        seed: 3,
        outcome: 'fail',
        reward: 0,
        error: 'PolicyGaveUpError: gave up',
        steps: 2,
      },
    ]);
    const episode = JSON.parse((await get('/api/episodes/0')).body.toString());
    expect(episode.turns[0].diff.every((l: { op: string }) => l.op === '+')).toBe(true);
    expect(episode.turns[1]).toMatchObject({ action: 'noop()', parse_error: true, env_error: 'boom' });
    expect(episode.turns[1].diff).toEqual([
      { op: ' ', text: "RootWebArea 'a'" },
      { op: ' ', text: "\t[7] button 'Go'" },
      { op: '-', text: "\tStaticText 'x'" },
      { op: '+', text: "\tStaticText 'done'" },
    ]);
    expect((await get('/api/episodes/1')).status).toBe(404);
    const shot = await get('/files/screenshots/0/0.png');
    expect([shot.status, shot.type]).toEqual([200, 'image/png']);
    expect(shot.body).toEqual(PNG);
  });

  it('serves files of the run folder only: no .., encoded .., absolute path, link out, or other host', async () => {
    for (const path of [
      '/files/../secret.png',
      '/files/..%2fsecret.png',
      '/files/%2e%2e/secret.txt',
      '/files/screenshots/0/../../../secret.png',
      `/files/${encodeURIComponent(join(base, 'secret.png'))}`,
      '/files/screenshots/0/link.png',
      '/files/episodes.jsonl',
      '/files/screenshots/0/0.png%00.txt',
    ]) {
      const reply = await get(path);
      expect(reply.status, path).toBeGreaterThanOrEqual(400);
      expect(reply.body.toString(), path).not.toContain('secret');
    }
    const port = new URL(server.url).port;
    expect((await get('/api/episodes', `evil.example:${port}`)).status).toBe(403);
    expect((await get('/api/episodes', `localhost:${port}`)).status).toBe(200);
  });

  it('the command prints its URL, stops on Ctrl-C, and names RUN_DIR or --port when they are wrong', async () => {
    const stop = new AbortController();
    const out: string[] = [];
    const running = (await import('../src/cli/main.js')).main(['view', dir, '--port', '0'], {
      io: { out: (l) => out.push(l), err: () => undefined },
      env: {},
      signal: stop.signal,
    });
    await expect.poll(() => out.length, { timeout: 10_000 }).toBe(1);
    const url = /^(http:\/\/127\.0\.0\.1:\d+\/) \(1 episodes/.exec(out[0]!)![1]!;
    expect((await fetch(`${url}api/episodes`)).status).toBe(200);
    stop.abort();
    expect(await running).toBe(130);
    await expect(fetch(url)).rejects.toThrow();

    const missing = await agent(['view', join(base, 'nope')]);
    expect([missing.code, missing.errors]).toEqual([2, [expect.stringMatching(/RUN_DIR: .*nope does not exist/)]]);
    const notRun = await agent(['view', base]);
    expect(notRun.errors[0]).toMatch(/has no episodes.jsonl/);
    const busy = await agent(['view', dir, '--port', new URL(server.url).port]);
    expect([busy.code, busy.errors]).toEqual([1, [expect.stringMatching(/--port \d+: already in use/)]]);
    const help = await agent(['--help']);
    expect(help.out.join('\n')).toMatch(/\bview\b.*viewer/);
  });
});
