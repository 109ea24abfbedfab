import { createServer, type Server } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { fetchTaskNames } from '../client/task-list.js';
import { checkTaskNames } from './task-names.js';
import { UsageError } from './usage-error.js';

const SERVED = ['miniwob.click-button', 'miniwob.click-test', 'miniwob.enter-text', 'gauntlet.gauntlet'];
const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await new Promise((resolve) => server.close(resolve));
});

/** A stand-in env server's GET /tasks (and the Authorization header it saw). */
async function taskServer(token?: string): Promise<{ url: string; seen: (string | undefined)[] }> {
  const seen: (string | undefined)[] = [];
  const server = createServer((req, res) => {
    seen.push(req.headers.authorization);
    if (token && req.headers.authorization !== `Bearer ${token}`) return void res.writeHead(401).end('{}');
    if (req.url !== '/tasks') return void res.writeHead(404).end('{}');
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ tasks: SERVED.map((name) => ({ name, description: '', max_steps: null })) }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  return { url: `127.0.0.1:${(server.address() as { port: number }).port}`, seen };
}

const fake = (lists: Record<string, string[] | undefined | Error>) => async (url: string) => {
  const list = lists[url];
  if (list instanceof Error) throw list;
  return list;
};

describe('checkTaskNames', () => {
  it('accepts full, bare and browsergym/ names the servers serve', async () => {
    const check = await checkTaskNames(
      ['click-test', 'miniwob.enter-text', 'browsergym/miniwob.click-button', 'gauntlet'],
      ['ws://a:8000'],
      { fetchNames: fake({ 'ws://a:8000': SERVED }) },
    );
    expect(check).toEqual({ checked: true, served: 4 });
  });

  it('refuses an unknown name with a usage error naming the flag and the closest name, in the form given', async () => {
    const run = (names: string[]) =>
      checkTaskNames(names, ['ws://a:8000'], { fetchNames: fake({ 'ws://a:8000': SERVED }) });
    const error = await run(['miniwob.click-tset', 'click-test']).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).flag).toBe('task');
    expect((error as UsageError).message).toBe(
      '--task "miniwob.click-tset" (did you mean miniwob.click-test?): not served by the env servers (4 tasks; list them with GET /tasks on ws://a:8000)',
    );
    await expect(run(['enter-txt', 'zzzzzzzzzz'])).rejects.toThrow(
      '--task "enter-txt" (did you mean enter-text?), "zzzzzzzzzz": not served',
    );
  });

  it('a name any answering server serves passes; servers that do not answer are left out', async () => {
    const check = await checkTaskNames(['click-test'], ['ws://down:8000', 'ws://up:8000'], {
      fetchNames: fake({ 'ws://down:8000': new Error('connect ECONNREFUSED'), 'ws://up:8000': SERVED }),
    });
    expect(check).toEqual({ checked: true, served: 4 });
  });

  it('checks nothing, and says why, when no server answers or only gRPC is given', async () => {
    const check = await checkTaskNames(['click-tset'], ['ws://down:8000', 'grpc://g:50051'], {
      fetchNames: fake({ 'ws://down:8000': new Error('connect ECONNREFUSED'), 'grpc://g:50051': undefined }),
    });
    expect(check.checked).toBe(false);
    expect(check.checked === false && check.reason.split('; ').sort()).toEqual([
      'grpc://g:50051: gRPC has no task list',
      'ws://down:8000: connect ECONNREFUSED',
    ]);
  });
});

describe('fetchTaskNames', () => {
  it("reads GET /tasks of a ws:// or http:// server's HTTP port, with the bearer token", async () => {
    const { url, seen } = await taskServer('t0k');
    expect(await fetchTaskNames(`ws://${url}`, { token: 't0k' })).toEqual(SERVED);
    expect(await fetchTaskNames(`http://${url}/`, { token: 't0k' })).toEqual(SERVED);
    expect(seen).toEqual(['Bearer t0k', 'Bearer t0k']);
    await expect(fetchTaskNames(`http://${url}`)).rejects.toThrow(`GET http://${url}/tasks answered 401`);
    expect(await fetchTaskNames('grpc://127.0.0.1:50051')).toBeUndefined();
  });

  it('an unreachable server is a rejected promise (the caller decides), within the timeout', async () => {
    const { url } = await taskServer();
    const [host, port] = url.split(':');
    await new Promise<void>((resolve) => servers.pop()!.close(() => resolve()));
    await expect(fetchTaskNames(`http://${host}:${port}`, { timeoutMs: 2_000 })).rejects.toThrow();
  });
});
