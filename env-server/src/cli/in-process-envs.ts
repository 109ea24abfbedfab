import type { EpisodeEnv } from '@gauntlet/proto/agent';
import { DEFAULTS, resolveConfig } from '../config.js';
import { EnvService } from '../server/env-service.js';
import type { EnvSession } from '../sessions/session.js';

export interface InProcessEnvs {
  ports: EpisodeEnv[];
  close(): Promise<void>;
}

/**
 * One in-process session as an episode's env: the two calls of an EnvClient, served by the
 * service directly (the step's deadline goes to the server as its timeout, as over HTTP).
 */
export function sessionEnv(service: EnvService, session: EnvSession): EpisodeEnv {
  return {
    reset: (request = {}) => service.reset(session, request),
    step: (action, options = {}) =>
      service.step(session, {
        action: typeof action === 'string' ? { action_str: action } : action,
        ...(options.timeoutMs === undefined
          ? {}
          : { timeout_s: Math.min(600, Math.max(0.001, options.timeoutMs / 1000)) }),
      }),
  };
}

/** An in-process env service with `size` sessions, each exposed as an episode env (not the worker's EnvPool of remote servers). */
export async function openInProcessEnvs(size: number, chromiumPath: string | undefined): Promise<InProcessEnvs> {
  const config = {
    ...resolveConfig({}),
    idleTtlMs: 0,
    warmContexts: 0,
    maxSessions: size,
    defaultObservation: structuredClone(DEFAULTS.defaultObservation),
  };
  if (chromiumPath) config.chromiumPath = chromiumPath;
  const service = new EnvService(config);
  try {
    await service.start();
    const sessions = await Promise.all(Array.from({ length: size }, () => service.openSession('inproc')));
    const ports = sessions.map((session) => sessionEnv(service, session));
    return { ports, close: () => service.shutdown() };
  } catch (error) {
    await service.shutdown();
    throw error;
  }
}

/**
 * Runs every job on the first free port; jobs on one port run one after another. Once `signal`
 * is aborted (Ctrl-C) no job starts: the ones in flight finish, so what they wrote is whole.
 */
export async function onPorts<J>(
  ports: EpisodeEnv[],
  jobs: readonly J[],
  signal: AbortSignal,
  work: (port: EpisodeEnv, job: J) => Promise<void>,
): Promise<void> {
  const queue = [...jobs];
  const next = () => (signal.aborted ? undefined : queue.shift());
  await Promise.all(
    ports.map(async (port) => {
      for (let job = next(); job !== undefined; job = next()) await work(port, job);
    }),
  );
}
