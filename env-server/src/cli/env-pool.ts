import { DEFAULTS, resolveConfig } from '../config.js';
import { EnvService } from '../server/env-service.js';
import type { EnvPort } from '../tasks/gauntlet/expert/env-port.js';

export interface EnvPool {
  ports: EnvPort[];
  close(): Promise<void>;
}

/** An in-process env with `size` sessions, each exposed as an EnvPort. */
export async function openEnvPool(size: number, chromiumPath: string | undefined): Promise<EnvPool> {
  const config = { ...resolveConfig({}), idleTtlMs: 0, warmContexts: 0, maxSessions: size, defaultObservation: structuredClone(DEFAULTS.defaultObservation) };
  if (chromiumPath) config.chromiumPath = chromiumPath;
  const service = new EnvService(config);
  try {
    await service.start();
    const sessions = await Promise.all(Array.from({ length: size }, () => service.openSession('inproc')));
    const ports = sessions.map((session): EnvPort => ({ reset: (body) => service.reset(session, body), step: (body) => service.step(session, body) }));
    return { ports, close: () => service.shutdown() };
  } catch (error) {
    await service.shutdown();
    throw error;
  }
}

/** Runs every job on the first free port; jobs on one port run one after another. */
export async function onPorts<J>(ports: EnvPort[], jobs: readonly J[], work: (port: EnvPort, job: J) => Promise<void>): Promise<void> {
  const queue = [...jobs];
  await Promise.all(ports.map(async (port) => {
    for (let job = queue.shift(); job !== undefined; job = queue.shift()) await work(port, job);
  }));
}
