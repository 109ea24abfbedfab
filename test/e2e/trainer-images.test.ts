// Dockerfile.trainer's two images built from the local Debian base: what is inside them, their
// --help, the trainer serving the tiny model with a token as uid 1000 bound to 0.0.0.0, and the
// refusal to start without a token under GAUNTLET_REQUIRE_TOKEN=1. Image sizes are printed.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DockerResources,
  REPO,
  buildImage,
  docker,
  envImageBuildArgs,
  processUids,
  publishedPort,
  run,
  waitHealthy,
} from './docker.js';

const BUILD_MS = 25 * 60_000;
const runId = `${process.pid}-${randomBytes(3).toString('hex')}`;
const resources = new DockerResources();
const images = { trainer: '', 'rollout-worker': '' };

beforeAll(async () => {
  const buildArgs = await envImageBuildArgs();
  for (const target of ['trainer', 'rollout-worker'] as const) {
    images[target] = resources.image(`gauntlet-e2e/${target}:${runId}`);
    await buildImage({ dockerfile: 'Dockerfile.trainer', context: REPO, tag: images[target], target, buildArgs });
    const bytes = Number(await docker(['image', 'inspect', '--format', '{{.Size}}', images[target]]));
    console.log(`[trainer-images] ${target} image: ${(bytes / 1e6).toFixed(0)} MB`);
  }
}, BUILD_MS);

afterAll(() => resources.removeAll(), 120_000);

describe('Dockerfile.trainer', () => {
  it.each([
    [
      'trainer',
      ['8001/tcp'],
      '/app/trainer/src /app/rollout-worker /app/node_modules/typescript /app/node_modules/ajv',
    ],
    ['rollout-worker', ['9464/tcp'], '/app/rollout-worker/src /app/trainer /app/node_modules/typescript'],
  ] as const)(
    '%s: uid 1000, its port, HOST=0.0.0.0, no sources, dev dependencies or npm',
    async (target, ports, absent) => {
      const config = JSON.parse(await docker(['image', 'inspect', '--format', '{{json .Config}}', images[target]]));
      expect(config.User).toBe('1000:1000');
      expect(Object.keys(config.ExposedPorts)).toEqual(ports);
      expect(config.Env).toContain('HOST=0.0.0.0');
      expect(config.Healthcheck.Test.join(' ')).toContain('/health');
      const leftovers = await docker([
        'run',
        '--rm',
        '--entrypoint',
        'sh',
        images[target],
        '-c',
        `ls -d /app/proto/src ${absent} 2>/dev/null; find /app -name '*.ts' -not -path '*/node_modules/*'; command -v npm; true`,
      ]);
      expect(leftovers).toBe('');
    },
  );

  it('prints the help of gauntlet-trainer and gauntlet-worker', async () => {
    expect(await docker(['run', '--rm', images.trainer, 'grpo', '--help'])).toMatch(/Usage: gauntlet-trainer grpo/);
    expect(await docker(['run', '--rm', images['rollout-worker'], 'run', '--help'])).toMatch(
      /Usage: gauntlet-worker run/,
    );
  }, 120_000);

  it('serves the tiny model on 0.0.0.0 as uid 1000, only to clients with the token', async () => {
    const token = randomBytes(12).toString('hex');
    const container = resources.container(
      await docker([
        'run',
        '--detach',
        '--name',
        `gauntlet-e2e-trainer-${runId}`,
        '--publish',
        '127.0.0.1::8001',
        '--env',
        'GAUNTLET_REQUIRE_TOKEN=1',
        '--env',
        `VLLM_API_KEY=${token}`,
        images.trainer,
        'serve',
      ]),
    );
    await waitHealthy(container, 120_000);
    const url = `http://127.0.0.1:${await publishedPort(container, 8001)}`;
    expect((await fetch(`${url}/v1/models`)).status).toBe(401);
    const models = await fetch(`${url}/v1/models`, { headers: { authorization: `Bearer ${token}` } });
    expect(((await models.json()) as { data: { id: string }[] }).data.map((m) => m.id)).toEqual(['tiny']);
    expect(await docker(['logs', container])).toContain('http://0.0.0.0:8001');
    expect(await processUids(container)).toEqual(['1000']);
  }, 180_000);

  it('refuses to start serve or run without a token under GAUNTLET_REQUIRE_TOKEN=1', async () => {
    for (const [image, command] of [
      [images.trainer, 'serve'],
      [images['rollout-worker'], 'run'],
    ] as const) {
      const refused = await run('docker', ['run', '--rm', '--env', 'GAUNTLET_REQUIRE_TOKEN=1', image, command]);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toMatch(/GAUNTLET_REQUIRE_TOKEN=1 but no token is set: set GAUNTLET_TOKEN/);
    }
  }, 120_000);
});
