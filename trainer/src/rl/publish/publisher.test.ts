import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { ExternalPublisher } from './publisher.js';
import type { ProbeExpectation } from './probe.js';

/** A stand-in for vLLM's runtime-LoRA routes (the real-server path is covered by test/rl/publish.test.ts). */
interface FakeBehaviour {
  list?: (names: string[]) => string[];
  logprob?: number;
  hangOn?: string;
}

const servers: Server[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise((resolve) => s.close(resolve));
  }
});

async function fakeServer(behaviour: FakeBehaviour = {}): Promise<{ url: string; calls: string[] }> {
  const loaded: string[] = [];
  const calls: string[] = [];
  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    let body = '';
    for await (const chunk of req) body += chunk;
    const json = body ? (JSON.parse(body) as Record<string, unknown>) : {};
    calls.push(`${req.method} ${req.url}${json['lora_name'] ? ` ${json['lora_name']}` : ''}`);
    if (req.url === behaviour.hangOn) return; // never answers
    const send = (status: number, value: unknown) =>
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
    if (req.url === '/v1/load_lora_adapter') {
      if (loaded.includes(json['lora_name'] as string))
        return send(400, { error: { message: `The lora adapter '${json['lora_name']}' has already been loaded.` } });
      loaded.push(json['lora_name'] as string);
      return res.end(`Success: LoRA adapter '${json['lora_name']}' added successfully.`);
    }
    if (req.url === '/v1/unload_lora_adapter') {
      const at = loaded.indexOf(json['lora_name'] as string);
      if (at < 0) return send(404, { error: { message: 'not found' } });
      loaded.splice(at, 1);
      return res.end('Success');
    }
    if (req.url === '/v1/models') {
      const ids = (behaviour.list ?? ((n) => n))(['base', ...loaded]);
      return send(200, { object: 'list', data: ids.map((id) => ({ id, object: 'model', created: 0, owned_by: 'x' })) });
    }
    const prompt = json['prompt'] as number[];
    return send(200, {
      id: 'c',
      object: 'text_completion',
      created: 0,
      model: json['model'],
      choices: [
        {
          index: 0,
          text: '',
          finish_reason: 'length',
          logprobs: {
            tokens: prompt.map(String).concat('x'),
            token_logprobs: [null, ...prompt.slice(1).map(() => behaviour.logprob ?? -1), -2],
          },
        },
      ],
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, calls };
}

const probe: ProbeExpectation = { promptIds: [1, 2], completionIds: [3, 4], logprobs: [-1, -1] };
const version = (n: number) => ({ name: `run@v${n}`, version: n, dir: `/adapters/run@v${n}` });

describe('ExternalPublisher', () => {
  it('refuses bad options up front', () => {
    expect(() => new ExternalPublisher({ targets: [] })).toThrow(/no policy server/);
    expect(() => new ExternalPublisher({ targets: [{ url: 'ftp://x' }] })).toThrow(/http/);
    expect(() => new ExternalPublisher({ targets: [{ url: 'http://a/' }, { url: 'http://a/v1' }] })).toThrow(/twice/);
    expect(() => new ExternalPublisher({ targets: [{ url: 'http://a' }], tolerance: 0 })).toThrow(/tolerance/);
    expect(() => new ExternalPublisher({ targets: [{ url: 'http://a' }], keepVersions: 0 })).toThrow(/keepVersions/);
  });

  it('takes out a server that does not list what it loaded, one whose probe is off, and one that hangs', async () => {
    const good = await fakeServer();
    const unlisted = await fakeServer({ list: (names) => names.slice(0, 1) });
    const off = await fakeServer({ logprob: -1.01 });
    const hung = await fakeServer({ hangOn: '/v1/models' });
    const publisher = new ExternalPublisher({
      targets: [good, unlisted, off, hung].map(({ url }) => ({ url })),
      timeoutMs: 300,
      keepVersions: 2,
    });
    const reports = await publisher.publish(version(1), probe);
    expect(reports.map((r) => r.ok)).toEqual([true, false, false, false]);
    expect(reports[1]!.reason).toMatch(/failed list of run@v1: \/v1\/models does not list it/);
    expect(reports[2]!.reason).toMatch(
      /failed probe of run@v1: probe log-prob differs by 0\.0100 at completion token 0/,
    );
    expect(reports[3]!.reason).toMatch(/failed list of run@v1/);
    expect(publisher.inRotation()).toEqual([{ url: good.url }]);
    expect(publisher.removed().map((r) => r.url)).toEqual([unlisted.url, off.url, hung.url]);
    expect(reports[0]!.maxAbsDiff).toBe(0);

    await publisher.publish(version(2), probe);
    const third = await publisher.publish(version(3), probe);
    expect(third[0]!.unloaded).toEqual(['run@v1']);
    // Servers out of rotation are never called again.
    expect(off.calls.filter((c) => c.includes('run@v2'))).toEqual([]);
    expect(good.calls.filter((c) => c.startsWith('POST /v1/unload'))).toEqual(['POST /v1/unload_lora_adapter run@v1']);
  });

  it('publishes a version the server already holds again by unloading it first, and unloads what an earlier process left (a resume)', async () => {
    const server = await fakeServer();
    const before = new ExternalPublisher({ targets: [{ url: server.url }] });
    await before.publish(version(5), probe);
    await before.publish(version(6), probe);
    const resumed = new ExternalPublisher({
      targets: [{ url: server.url }],
      keepVersions: 1,
      loadedVersions: ['run@v5'],
    });
    const [report] = await resumed.publish(version(6), probe);
    expect(report).toMatchObject({ ok: true, unloaded: ['run@v5'] });
    expect(server.calls.filter((c) => c.includes('lora_adapter'))).toEqual([
      'POST /v1/load_lora_adapter run@v5',
      'POST /v1/load_lora_adapter run@v6',
      'POST /v1/load_lora_adapter run@v6',
      'POST /v1/unload_lora_adapter run@v6',
      'POST /v1/load_lora_adapter run@v6',
      'POST /v1/unload_lora_adapter run@v5',
    ]);
  });

  it('refuses a probe whose log-probs do not match its completion', async () => {
    const publisher = new ExternalPublisher({ targets: [{ url: (await fakeServer()).url }] });
    await expect(publisher.publish(version(1), { ...probe, logprobs: [-1] })).rejects.toThrow(/1 log-probs for 2/);
  });
});
