import { hostname } from 'node:os';
import Docker from 'dockerode';
import { InfraError } from '@gauntlet/proto';
import type { ContainerHandle, DockerApi } from './docker-api.js';
import { answers } from './health.js';

/** Labels on every container the provider starts: what it is, and which worker process owns it. */
export const LABELS = {
  role: 'dev.gauntlet.role',
  owner: 'dev.gauntlet.owner',
  replica: 'dev.gauntlet.replica',
} as const;
const ROLE = 'env-server';
const HTTP_PORT = '8000/tcp';
const GRPC_PORT = '50051/tcp';

export interface DockerEnvOptions {
  /** An env-server image (Dockerfile.env): serves HTTP on 8000 and gRPC on 50051. */
  image: string;
  replicas: number;
  /** Extra container environment, e.g. `MAX_CONCURRENT_ENVS=16`. */
  env?: string[];
  /** Longest wait for a container's /health (default 120 000 ms: Chromium starts inside). */
  startTimeoutMs?: number;
  /** Default: dockerode on DOCKER_HOST or the local socket. */
  docker?: DockerApi;
  /** This process, as written in the owner label (default host:pid). */
  owner?: string;
  /** Whether the process of an owner label still runs (default: same host and a live pid). */
  ownerAlive?: (owner: string) => boolean;
}

/**
 * Env servers as Docker containers: starts `replicas` containers of `image` with their ports
 * published on loopback, labels them with this process as owner, waits for each one's /health,
 * and gives their gRPC URLs to the env pool. Containers left by a worker on this host that died
 * without stopping them are removed first; stop() removes this worker's own.
 */
export class DockerEnvProvider {
  private readonly docker: DockerApi;
  private readonly owner: string;
  private readonly started: ContainerHandle[] = [];

  constructor(private readonly options: DockerEnvOptions) {
    if (!Number.isInteger(options.replicas) || options.replicas < 1)
      throw new RangeError(`replicas must be a positive integer (got ${options.replicas})`);
    this.docker = options.docker ?? new Docker();
    this.owner = options.owner ?? `${hostname()}:${process.pid}`;
  }

  /** Removes orphans, starts the replicas, and resolves with their gRPC URLs once all are healthy. */
  async start(): Promise<string[]> {
    await this.removeOrphans();
    const urls: string[] = [];
    try {
      for (let replica = 0; replica < this.options.replicas; replica++) urls.push(await this.startOne(replica));
    } catch (error) {
      await this.stop();
      throw error;
    }
    return urls;
  }

  /** Stops and removes the containers this provider started. */
  async stop(): Promise<void> {
    const mine = this.started.splice(0);
    await Promise.all(mine.map((c) => c.remove({ force: true }).catch(() => undefined)));
  }

  /** Containers of ours whose owner process is gone (a worker killed before it could stop them). */
  async removeOrphans(): Promise<string[]> {
    const alive = this.options.ownerAlive ?? ownerAliveOnThisHost;
    const ours = await this.docker.listContainers({
      all: true,
      filters: JSON.stringify({ label: [`${LABELS.role}=${ROLE}`] }),
    });
    const orphans = ours.filter((c) => c.Labels[LABELS.owner] !== this.owner && !alive(c.Labels[LABELS.owner] ?? ''));
    await Promise.all(
      orphans.map((c) =>
        this.docker
          .getContainer(c.Id)
          .remove({ force: true })
          .catch(() => undefined),
      ),
    );
    return orphans.map((c) => c.Id);
  }

  private async startOne(replica: number): Promise<string> {
    const loopback = [{ HostIp: '127.0.0.1', HostPort: '' }];
    const container = await this.docker.createContainer({
      Image: this.options.image,
      Labels: { [LABELS.role]: ROLE, [LABELS.owner]: this.owner, [LABELS.replica]: String(replica) },
      Env: this.options.env ?? [],
      ExposedPorts: { [HTTP_PORT]: {}, [GRPC_PORT]: {} },
      HostConfig: { PortBindings: { [HTTP_PORT]: loopback, [GRPC_PORT]: loopback } },
    });
    this.started.push(container);
    await container.start();
    const ports = (await container.inspect()).NetworkSettings.Ports;
    const http = ports[HTTP_PORT]?.[0]?.HostPort;
    const grpc = ports[GRPC_PORT]?.[0]?.HostPort;
    if (!http || !grpc)
      throw new InfraError(
        `container ${container.id.slice(0, 12)} of ${this.options.image} published no ports for 8000 and 50051`,
      );
    await this.waitHealthy(container, `http://127.0.0.1:${http}/health`);
    return `grpc://127.0.0.1:${grpc}`;
  }

  private async waitHealthy(container: ContainerHandle, url: string): Promise<void> {
    const until = Date.now() + (this.options.startTimeoutMs ?? 120_000);
    while (Date.now() < until) {
      const ok = await answers(url, 2_000);
      if (ok) return;
      const state = (await container.inspect()).State;
      if (!state.Running)
        throw new InfraError(
          `container ${container.id.slice(0, 12)} of ${this.options.image} stopped (${state.Status}) before answering /health; its last output:\n${String(await container.logs({ stdout: true, stderr: true, tail: 20 })).trim()}`,
        );
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    throw new InfraError(
      `container ${container.id.slice(0, 12)} of ${this.options.image} did not answer ${url} within ${this.options.startTimeoutMs ?? 120_000} ms`,
    );
  }
}

/** An owner on this host is alive while its pid is; owners on other hosts are assumed alive (not ours to judge). */
function ownerAliveOnThisHost(owner: string): boolean {
  const at = owner.lastIndexOf(':');
  if (at < 0 || owner.slice(0, at) !== hostname()) return true;
  try {
    process.kill(Number(owner.slice(at + 1)), 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
