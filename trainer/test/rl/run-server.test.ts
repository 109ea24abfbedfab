import { afterEach, describe, expect, it } from 'vitest';
import { RunReport } from '../../src/rl/report/index.js';
import { startRunServer, type RunServer, type RunServerAccess } from '../../src/rl/serving/run-server.js';

let server: RunServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function start(access: RunServerAccess): Promise<string> {
  const report = new RunReport({ jsonlPath: '/dev/null' });
  server = await startRunServer(
    { metrics: () => report.registry.metrics(), others: [(req, res) => report.handler(req, res)] },
    null,
    0,
    '127.0.0.1',
    access,
  );
  return server.url;
}

const status = async (url: string, key?: string) =>
  (await fetch(url, key ? { headers: { authorization: `Bearer ${key}` } } : {})).status;

describe("the GRPO run's own routes", () => {
  it('answer to the same key as the policy API; /health stays open', async () => {
    const url = await start({ apiKeys: ['secret'] });
    for (const path of ['/metrics', '/curves', '/curves.json']) {
      expect(await status(url + path)).toBe(401);
      expect(await status(url + path, 'wrong')).toBe(401);
      expect(await status(url + path, 'secret')).toBe(200);
    }
    expect(await status(url + '/health')).toBe(200);
  });

  it('--public-metrics leaves the figures open for an in-cluster scrape', async () => {
    const url = await start({ apiKeys: ['secret'], publicMetrics: true });
    for (const path of ['/metrics', '/curves', '/curves.json']) expect(await status(url + path)).toBe(200);
  });

  it('without keys everything is open, as before', async () => {
    const url = await start({});
    expect(await status(url + '/metrics')).toBe(200);
  });
});
