// docker-compose.yml read as YAML, no Docker needed: the host ports each setting publishes (the
// ${VAR-default} substitutions resolved as Compose does), so a default or the documented scaled
// ranges can never publish one port twice; and Redis's memory settings.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { REPO } from './docker.js';

interface Service {
  ports?: string[];
  command?: string[];
  environment?: Record<string, string>;
}
const compose = parse(readFileSync(join(REPO, 'docker-compose.yml'), 'utf8')) as { services: Record<string, Service> };

/** `${NAME-default}` / `${NAME:-default}` as Compose resolves them with `variables` set. */
function substitute(text: string, variables: Record<string, string>): string {
  return text.replace(/\$\{(\w+)(:?-)([^}]*)\}/g, (_, name: string, op: string, fallback: string) => {
    const value = variables[name];
    return value === undefined || (op === ':-' && value === '') ? fallback : value;
  });
}

/** Every host port a service publishes, ranges expanded: `service -> ports`. */
function hostPorts(variables: Record<string, string>): Map<string, number[]> {
  const published = new Map<string, number[]>();
  for (const [name, service] of Object.entries(compose.services)) {
    const ports = (service.ports ?? []).flatMap((spec) => {
      const [, host] = substitute(spec, variables).split(':');
      const [from, to = from] = host!.split('-').map(Number);
      return Array.from({ length: to! - from! + 1 }, (_, i) => from! + i);
    });
    if (ports.length) published.set(name, ports);
  }
  return published;
}

/** The documented `--scale env=N` settings (docs/deploy.md and the file's header). */
const SCALED = { GAUNTLET_ENV_PORTS: '8100-8199', GAUNTLET_GRPC_PORTS: '50100-50199' };

describe('docker-compose.yml host ports', () => {
  it('one env server publishes fixed ports (no range to drift in), apart from the trainer', () => {
    expect(Object.fromEntries(hostPorts({}))).toEqual({ env: [8000, 50051], trainer: [8001] });
  });

  it('the documented ranges for --scale env=N overlap nothing: not each other, not the trainer', () => {
    const all = [...hostPorts(SCALED).values()].flat();
    expect(all).toHaveLength(201);
    expect(new Set(all).size).toBe(all.length);
    expect(all).toContain(8001);
    const text =
      readFileSync(join(REPO, 'docker-compose.yml'), 'utf8') + readFileSync(join(REPO, 'docs/deploy.md'), 'utf8');
    for (const [name, value] of Object.entries(SCALED)) expect(text).toContain(`${name}=${value}`);
  });
});

describe('docker-compose.yml services', () => {
  it('Redis has a stated maxmemory and never evicts (BullMQ loses jobs to eviction)', () => {
    const command = compose.services['redis']!.command!;
    expect(command[command.indexOf('--maxmemory') + 1]).toBe('512mb');
    expect(command[command.indexOf('--maxmemory-policy') + 1]).toBe('noeviction');
  });

  it("the trainer checks its --task against the env server's task list (GAUNTLET_ENV_URLS)", () => {
    expect(compose.services['trainer']!.environment!['GAUNTLET_ENV_URLS']).toBe(
      compose.services['rollout-worker']!.environment!['GAUNTLET_ENV_URLS'],
    );
  });
});
