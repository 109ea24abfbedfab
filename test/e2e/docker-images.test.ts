// Builds the env image (Dockerfile.env) and the Hugging Face Space (space/) on a real Docker engine
// from the local Debian base, runs them as a deployment would, and plays episodes against them
// from the host with the SDK. Needs Docker: `.ci/run` installs and starts it; elsewhere the first
// test fails with the commands to run. Everything created is removed, except the cached base.
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UnauthorizedError } from '@gauntlet/proto';
import { createEnvClient } from '@gauntlet/proto/client';
import { writeSpaceBundle } from '../../scripts/space-bundle.mjs';
import {
  DockerResources,
  REPO,
  buildEnvImage,
  buildImage,
  docker,
  envImageBuildArgs,
  playClickTest,
  processUids,
  publishedPort,
  run,
  waitHealthy,
} from './docker.js';

const BUILD_MS = 25 * 60_000;
const CONTAINER_MS = 180_000;
const runId = `${process.pid}-${randomBytes(3).toString('hex')}`;
const resources = new DockerResources();
const scratch = mkdtempSync(join(tmpdir(), 'gauntlet-e2e-'));
let buildArgs: Record<string, string>;

beforeAll(async () => {
  buildArgs = await envImageBuildArgs();
}, BUILD_MS);

afterAll(async () => {
  await resources.removeAll();
  rmSync(scratch, { recursive: true, force: true });
}, 120_000);

describe('Dockerfile.env', () => {
  let image: string;
  const token = randomBytes(12).toString('hex');

  beforeAll(async () => {
    image = resources.image(`gauntlet-e2e/env:${runId}`);
    await buildEnvImage(image);
  }, BUILD_MS);

  it('is a uid-1000 image with both ports, a health check, and no sources, dev dependencies or npm', async () => {
    const config = JSON.parse(await docker(['image', 'inspect', '--format', '{{json .Config}}', image]));
    expect(config.User).toBe('1000:1000');
    expect(Object.keys(config.ExposedPorts).sort()).toEqual(['50051/tcp', '8000/tcp']);
    expect(config.Healthcheck.Test.join(' ')).toContain('/app/docker/healthcheck.mjs');
    expect(config.Env).toContain('HOST=0.0.0.0');
    const leftovers = await docker([
      'run',
      '--rm',
      '--entrypoint',
      'sh',
      image,
      '-c',
      'ls -d /app/env-server/src /app/proto/src /app/node_modules/typescript /app/node_modules/vitest /opt/miniwob 2>/dev/null; ' +
        "find /app -name '*.ts' -not -path '*/node_modules/*'; command -v npm; true",
    ]);
    expect(leftovers).toBe('');
  });

  it(
    'serves an episode over HTTP and over gRPC to clients with its token, as uid 1000, honouring OpenEnv variables',
    async () => {
      const container = resources.container(
        await docker([
          'run',
          '--detach',
          '--name',
          `gauntlet-e2e-env-${runId}`,
          '--publish',
          '127.0.0.1::8000',
          '--publish',
          '127.0.0.1::50051',
          '--env',
          'GAUNTLET_REQUIRE_TOKEN=1',
          '--env',
          `GAUNTLET_TOKEN=${token}`,
          '--env',
          'MAX_CONCURRENT_ENVS=3',
          '--env',
          'BROWSERGYM_TASK_NAME=click-button',
          '--env',
          'BROWSERGYM_VIEWPORT_WIDTH=800',
          '--env',
          'BROWSERGYM_VIEWPORT_HEIGHT=600',
          image,
        ]),
      );
      await waitHealthy(container);
      const http = `http://127.0.0.1:${await publishedPort(container, 8000)}`;
      const grpc = `grpc://127.0.0.1:${await publishedPort(container, 50051)}`;

      await playClickTest(createEnvClient(http, { token, validateReplies: true }));
      await playClickTest(createEnvClient(grpc, { token, validateReplies: true }));
      for (const url of [http, grpc]) {
        const stranger = createEnvClient(url, { retry: { attempts: 1 } });
        await expect(stranger.reset({ task_name: 'click-test', seed: 1 })).rejects.toBeInstanceOf(UnauthorizedError);
        await stranger.close().catch(() => undefined);
      }

      // BROWSERGYM_TASK_NAME picks the task of a reset that names none; the viewport variables size the page.
      const env = createEnvClient(http, { token });
      try {
        const first = await env.reset({ seed: 3, observation: { screenshot: 'png' } }, { timeoutMs: 60_000 });
        expect((await env.state()).task_name).toBe('miniwob.click-button');
        expect(first.metadata?.screenshot_encoded).toMatchObject({ format: 'png', width: 800, height: 600 });
      } finally {
        await env.close();
      }
      expect(await docker(['logs', container])).toMatch(/max 3 sessions/);
      // Chromium and the server alike.
      expect(await processUids(container)).toEqual(['1000']);
    },
    CONTAINER_MS,
  );

  it(
    'refuses to start without a token when GAUNTLET_REQUIRE_TOKEN=1, saying how to give one',
    async () => {
      const refused = await run('docker', ['run', '--rm', '--env', 'GAUNTLET_REQUIRE_TOKEN=1', image], {
        timeoutMs: 60_000,
      });
      expect(refused.code).toBe(2);
      expect(refused.stderr).toMatch(
        /GAUNTLET_REQUIRE_TOKEN=1 but no bearer token is set: pass --token <secret> or set GAUNTLET_TOKEN/,
      );
    },
    CONTAINER_MS,
  );

  it(
    'bakes an operator-supplied MiniWoB++ copy into the env-miniwob target, read-only for the server',
    async () => {
      const html = join(scratch, 'miniwob-html');
      mkdirSync(join(html, 'miniwob'), { recursive: true });
      mkdirSync(join(html, 'core'));
      writeFileSync(join(html, 'miniwob', 'click-test.html'), '<!doctype html><title>fixture</title>\n');
      writeFileSync(join(html, 'core', 'core.js'), '// fixture\n');
      const tarball = join(scratch, 'miniwob-html.tar');
      const tar = await run('tar', ['-C', html, '-cf', tarball, '.']);
      expect(tar.code, tar.stderr).toBe(0);
      const miniwob = resources.image(`gauntlet-e2e/miniwob-html:${runId}`);
      await docker(['import', tarball, miniwob]);

      const baked = resources.image(`gauntlet-e2e/env-miniwob:${runId}`);
      await buildImage({
        dockerfile: 'Dockerfile.env',
        context: REPO,
        tag: baked,
        target: 'env-miniwob',
        buildArgs: { ...buildArgs, MINIWOB_IMAGE: miniwob },
      });
      const seen = await docker([
        'run',
        '--rm',
        '--entrypoint',
        'sh',
        baked,
        '-c',
        'echo "$MINIWOB_DIR"; cat "$MINIWOB_DIR/click-test.html"; ls "$MINIWOB_DIR/../core"; ' +
          'touch "$MINIWOB_DIR/x" 2>/dev/null && echo writable; id -u',
      ]);
      expect(seen.split('\n')).toEqual([
        '/opt/miniwob/html/miniwob',
        '<!doctype html><title>fixture</title>',
        'core.js',
        '1000',
      ]);
    },
    BUILD_MS,
  );
});

describe('the Hugging Face Space (space/)', () => {
  let image: string;

  beforeAll(async () => {
    // Hugging Face builds the Space repository's root as the context: the bundle is that root.
    const bundle = join(scratch, 'space');
    writeSpaceBundle(bundle);
    image = resources.image(`gauntlet-e2e/space:${runId}`);
    await buildImage({ dockerfile: join(bundle, 'Dockerfile'), context: bundle, tag: image, buildArgs });
  }, BUILD_MS);

  it(
    'runs like a Space, non-root with only the app port, and plays episodes over WebSocket and HTTP',
    async () => {
      const config = JSON.parse(await docker(['image', 'inspect', '--format', '{{json .Config}}', image]));
      expect(config.User).toBe('1000:1000');
      expect(Object.keys(config.ExposedPorts)).toEqual(['8000/tcp']);

      const container = resources.container(
        await docker([
          'run',
          '--detach',
          '--name',
          `gauntlet-e2e-space-${runId}`,
          '--publish',
          '127.0.0.1::8000',
          image,
        ]),
      );
      await waitHealthy(container);
      const port = await publishedPort(container, 8000);
      // OpenEnv's Python client speaks the WebSocket at /ws, as the SDK's ws transport does.
      await playClickTest(createEnvClient(`ws://127.0.0.1:${port}`, { validateReplies: true }));
      await playClickTest(createEnvClient(`http://127.0.0.1:${port}`, { validateReplies: true }));
      const metadata = (await (await fetch(`http://127.0.0.1:${port}/metadata`)).json()) as { name?: unknown };
      expect(typeof metadata.name).toBe('string');
      expect(await processUids(container)).toEqual(['1000']);
      // No gRPC server inside either (GRPC_PORT=off): the app port is the only one reachable.
      expect(await listeningPorts(container)).toEqual([8000]);
      expect(await docker(['logs', container])).toContain('gRPC: off');
    },
    CONTAINER_MS,
  );
});

/**
 * TCP ports listening inside a container beyond its loopback, from the kernel's socket tables.
 * Loopback listeners (the env's per-context egress proxies) cannot be reached from outside.
 */
async function listeningPorts(container: string): Promise<number[]> {
  const tables = await docker(['exec', container, 'cat', '/proc/net/tcp', '/proc/net/tcp6']);
  const loopback = new Set(['0100007F', '00000000000000000000000001000000']);
  const ports = tables
    .split('\n')
    .map((line) => line.trim().split(/\s+/))
    .filter((fields) => fields[3] === '0A') // LISTEN
    .map((fields) => fields[1]!.split(':'))
    .filter(([address]) => !loopback.has(address!))
    .map(([, port]) => Number.parseInt(port!, 16));
  return [...new Set(ports)].sort((a, b) => a - b);
}
