import { spawn } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import type { EnvClient } from '@gauntlet/proto/client';

/** The repository root: the build context of Dockerfile.env. */
export const REPO = fileURLToPath(new URL('../..', import.meta.url));

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a command without blocking the event loop (image builds take minutes). */
export function run(
  command: string,
  args: string[],
  options: { timeoutMs?: number; cwd?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd ?? REPO,
      stdio: ['ignore', 'pipe', 'pipe'],
      ...(options.env ? { env: options.env } : {}),
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 60_000);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** `docker …`, throwing with the command's output when it fails. */
export async function docker(args: string[], timeoutMs = 60_000): Promise<string> {
  const result = await run('docker', args, { timeoutMs });
  if (result.code !== 0)
    throw new Error(`docker ${args.join(' ')} exited ${result.code}:\n${tail(result.stderr || result.stdout)}`);
  return result.stdout.trim();
}

export function tail(text: string, lines = 40): string {
  return text.trimEnd().split('\n').slice(-lines).join('\n');
}

/**
 * The local Debian base image (scripts/docker-base.sh: reuses the image or its cached tarball,
 * else debootstraps). Without a Docker engine or debootstrap it fails with the commands to run.
 */
export async function localBaseImage(): Promise<string> {
  const result = await run('bash', ['scripts/docker-base.sh'], { timeoutMs: 15 * 60_000 });
  if (result.code !== 0) throw new Error(`Docker is needed for these tests and is not ready:\n${result.stderr.trim()}`);
  return result.stdout.trim().split('\n').at(-1)!;
}

/**
 * Certificates this machine added to its trust store (a TLS-intercepting proxy's CA, say), for
 * the EXTRA_CA_CERTS build arg: npm inside the build must trust what the host trusts.
 */
export function hostExtraCaCerts(dir = '/usr/local/share/ca-certificates'): string {
  let names: string[];
  try {
    names = readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((name) => name.endsWith('.crt'));
  } catch {
    return '';
  }
  return names.map((name) => readFileSync(join(dir, name), 'utf8').trim()).join('\n');
}

/**
 * What a test created on the Docker engine, removed afterwards whatever happened. Image tags go,
 * their layers stay behind as Docker's build cache (`--no-prune`): the next run rebuilds only
 * what changed, and `docker image prune` reclaims them.
 */
export class DockerResources {
  private readonly containers: string[] = [];
  private readonly images: string[] = [];

  image(tag: string): string {
    this.images.push(tag);
    return tag;
  }

  container(id: string): string {
    this.containers.push(id);
    return id;
  }

  async removeAll(): Promise<void> {
    for (const id of this.containers.splice(0).reverse()) await run('docker', ['rm', '--force', '--volumes', id]);
    for (const tag of this.images.splice(0).reverse()) await run('docker', ['rmi', '--force', '--no-prune', tag]);
  }
}

/**
 * BuildKit (buildx), the builder `docker compose build` uses: one build cache serves both, so the
 * compose test's images reuse the layers the image tests built. Docker 20.10's CLI otherwise
 * takes the classic builder, whose cache BuildKit never reads.
 */
const BUILDKIT = { ...process.env, DOCKER_BUILDKIT: '1' };

export async function buildImage(options: {
  dockerfile: string;
  context: string;
  tag: string;
  buildArgs: Record<string, string>;
  target?: string;
}): Promise<void> {
  const args = ['build', '--file', options.dockerfile, '--tag', options.tag];
  for (const [name, value] of Object.entries(options.buildArgs)) args.push('--build-arg', `${name}=${value}`);
  if (options.target) args.push('--target', options.target);
  const result = await run('docker', [...args, options.context], { timeoutMs: 20 * 60_000, env: BUILDKIT });
  if (result.code !== 0) throw new Error(`docker ${args.join(' ')} exited ${result.code}:\n${tail(result.stderr)}`);
}

/** The host port Docker published for a container port (`-p 127.0.0.1::8000`). */
export async function publishedPort(container: string, port: number): Promise<number> {
  const line = (await docker(['port', container, `${port}/tcp`])).split('\n')[0] ?? '';
  return Number(line.slice(line.lastIndexOf(':') + 1));
}

/**
 * Waits until Docker's HEALTHCHECK reports the container healthy; throws with its logs if it
 * exits, turns unhealthy, or is not healthy within `timeoutMs`.
 */
export async function waitHealthy(container: string, timeoutMs = 90_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const [state, health] = (
      await docker([
        'inspect',
        '--format',
        '{{.State.Status}} {{if .State.Health}}{{.State.Health.Status}}{{end}}',
        container,
      ])
    ).split(' ');
    if (health === 'healthy') return;
    if (state !== 'running' || health === 'unhealthy' || Date.now() > deadline) {
      const logs = await run('docker', ['logs', '--tail', '40', container]);
      throw new Error(
        `container ${container} is ${state}/${health || 'no healthcheck'}:\n${tail(logs.stdout + logs.stderr)}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** The uids of every process in the container (read from /proc inside it). */
export async function processUids(container: string): Promise<string[]> {
  const out = await docker([
    'exec',
    container,
    'sh',
    '-c',
    'for s in /proc/[0-9]*/status; do awk \'/^Uid:/ {print $2}\' "$s" 2>/dev/null; done',
  ]);
  return [...new Set(out.split('\n').filter(Boolean))];
}

/**
 * Builds Dockerfile.env's default target as `tag` from the local base. Each test file that needs
 * the env image calls this; a second build of the same context is all Docker build-cache hits
 * (seconds), so the image's layers are built once per run.
 */
export async function buildEnvImage(tag: string): Promise<void> {
  await buildImage({ dockerfile: 'Dockerfile.env', context: REPO, tag, buildArgs: await envImageBuildArgs() });
}

/** Build args of the images built on the local base (Dockerfile.env, the Space). */
export async function envImageBuildArgs(): Promise<Record<string, string>> {
  return { BASE_IMAGE: await localBaseImage(), EXTRA_CA_CERTS: hostExtraCaCerts() };
}

/** Solves click-test through the SDK: reset, click the button's bid, reward 1 and done. */
export async function playClickTest(env: EnvClient): Promise<void> {
  try {
    const first = await env.reset({ task_name: 'click-test', seed: 7 }, { timeoutMs: 60_000 });
    const bid = /\[(\w+)\] button 'Click Me!'/.exec(first.observation.axtree_txt)?.[1];
    expect(bid, first.observation.axtree_txt).toBeDefined();
    const result = await env.step(`click('${bid}')`, { timeoutMs: 30_000 });
    expect({ reward: result.reward, done: result.done, error: result.observation.last_action_error }).toEqual({
      reward: 1,
      done: true,
      error: false,
    });
  } finally {
    await env.close();
  }
}
