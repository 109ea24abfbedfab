import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { DEFAULTS } from '../../src/config.js';
import { EnvService } from '../../src/server/env-service.js';

// Real MiniWoB++ behind MINIWOB_URL: the fixture pages over a real HTTP server that counts hits.
const ROOT = fileURLToPath(new URL('../fixtures/miniwob-plusplus/', import.meta.url));
const hits = new Map<string, number>();
let http: Server;
let service: EnvService;

beforeAll(async () => {
  http = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://x').pathname;
    hits.set(path, (hits.get(path) ?? 0) + 1);
    readFile(ROOT + path.slice(1)).then(
      (body) =>
        response.writeHead(200, { 'content-type': path.endsWith('.js') ? 'text/javascript' : 'text/html' }).end(body),
      () => response.writeHead(404).end('missing'),
    );
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(http.address() as AddressInfo).port}/miniwob`;
  service = new EnvService({
    ...structuredClone(DEFAULTS),
    miniwobUrl: base,
    miniwobTasks: ['click-test', 'missing-task'],
    warmContexts: 1,
    maxSessions: 2,
    idleTtlMs: 0,
  });
  await service.start();
});
afterAll(async () => {
  await service?.shutdown();
  http?.close();
});

it('plays pages from the URL, keeping their files in memory across resets and sessions', async () => {
  for (let round = 0; round < 3; round++) {
    const session = await service.openSession('inproc');
    const first = await service.reset(session, { task_name: 'click-test', seed: round });
    expect(first.observation.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/miniwob\/click-test\.html$/);
    const bid = /\[(\w+)\] button 'Click Me!'/.exec(first.observation.axtree_txt)![1];
    const result = await service.step(session, { action: { action_str: `click('${bid}')` } });
    expect(result).toMatchObject({ reward: 1, done: true });
    await service.close(session, 'client');
  }
  expect(hits.get('/miniwob/click-test.html')).toBe(1);
  expect(hits.get('/core/core.js')).toBe(1);
});

it('a task named in --miniwob-tasks without a page fails its reset with the HTTP status', async () => {
  const session = await service.openSession('inproc');
  await expect(service.reset(session, { task_name: 'miniwob.missing-task', seed: 1 })).rejects.toThrow(
    /answered HTTP 404.*missing-task\.html/,
  );
  await service.close(session, 'client');
});
