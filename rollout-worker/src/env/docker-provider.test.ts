import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { ContainerHandle, ContainerSpec, ContainerSummary, DockerApi } from './docker-api.js';
import { DockerEnvProvider, LABELS } from './docker-provider.js';

// Unit test: an in-memory Docker API, and a real HTTP server standing in for the containers'
// published /health port. The provider was also run against a real Docker engine (see docs).
const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

async function healthPort(): Promise<number> {
  const server = createServer((_req, res) => res.writeHead(200).end('{"status":"healthy"}'));
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

class FakeDocker implements DockerApi {
  readonly created: ContainerSpec[] = [];
  readonly removed: string[] = [];
  constructor(
    readonly existing: ContainerSummary[],
    private readonly httpPort: number,
    private readonly running = true,
  ) {}

  async listContainers(options: { all: boolean; filters: string }): Promise<ContainerSummary[]> {
    expect(options).toEqual({ all: true, filters: JSON.stringify({ label: [`${LABELS.role}=env-server`] }) });
    return this.existing;
  }

  async createContainer(spec: ContainerSpec): Promise<ContainerHandle> {
    this.created.push(spec);
    return this.getContainer(`c${this.created.length}`);
  }

  getContainer(id: string): ContainerHandle {
    const ports = {
      '8000/tcp': [{ HostIp: '127.0.0.1', HostPort: String(this.httpPort) }],
      '50051/tcp': [{ HostIp: '127.0.0.1', HostPort: String(40000 + Number(id.slice(1))) }],
    };
    return {
      id,
      start: async () => undefined,
      inspect: async () => ({
        State: { Running: this.running, Status: this.running ? 'running' : 'exited' },
        NetworkSettings: { Ports: ports },
      }),
      stop: async () => undefined,
      remove: async () => void this.removed.push(id),
      logs: async () => 'Error: no browser found\n',
    };
  }
}

const labels = (owner: string) => ({ [LABELS.role]: 'env-server', [LABELS.owner]: owner });

describe('DockerEnvProvider', () => {
  it('removes orphans of dead workers on this host, starts labelled replicas on loopback ports, and returns their gRPC URLs', async () => {
    const docker = new FakeDocker(
      [
        { Id: 'dead', Labels: labels('here:1'), State: 'running' },
        { Id: 'alive', Labels: labels('here:2'), State: 'running' },
        { Id: 'elsewhere', Labels: labels('other-host:1'), State: 'exited' },
      ],
      await healthPort(),
    );
    const provider = new DockerEnvProvider({
      image: 'gauntlet-env:test',
      replicas: 2,
      env: ['MAX_CONCURRENT_ENVS=4'],
      docker,
      owner: 'here:9',
      ownerAlive: (owner) => owner !== 'here:1',
    });
    expect(await provider.start()).toEqual(['grpc://127.0.0.1:40001', 'grpc://127.0.0.1:40002']);
    expect(docker.removed).toEqual(['dead']);
    expect(docker.created.map((c) => c.Labels)).toEqual(
      [0, 1].map((i) => ({ ...labels('here:9'), [LABELS.replica]: String(i) })),
    );
    expect(docker.created[0]).toMatchObject({
      Image: 'gauntlet-env:test',
      Env: ['MAX_CONCURRENT_ENVS=4'],
      HostConfig: {
        PortBindings: {
          '8000/tcp': [{ HostIp: '127.0.0.1', HostPort: '' }],
          '50051/tcp': [{ HostIp: '127.0.0.1', HostPort: '' }],
        },
      },
    });
    await provider.stop();
    expect(docker.removed).toEqual(['dead', 'c1', 'c2']);
  });

  it('a container that dies before /health answers fails the start with its last output, and nothing is left running', async () => {
    const docker = new FakeDocker([], 1, false);
    const provider = new DockerEnvProvider({
      image: 'gauntlet-env:test',
      replicas: 2,
      docker,
      owner: 'here:9',
      startTimeoutMs: 5_000,
    });
    await expect(provider.start()).rejects.toThrow(
      /container c1 of gauntlet-env:test stopped \(exited\) before answering \/health; its last output:\nError: no browser found/,
    );
    expect(docker.removed).toEqual(['c1']);
  });

  it('refuses a replica count that is not a positive integer', () => {
    expect(() => new DockerEnvProvider({ image: 'x', replicas: 0, docker: new FakeDocker([], 1) })).toThrow(
      /replicas must be a positive integer/,
    );
  });
});
