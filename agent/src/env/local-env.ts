import { findBin, startChildBin, type Progress } from '@gauntlet/proto/cli';

const findEnvBin = (): string => findBin('gauntlet-env');

export interface LocalEnv {
  /** The server's HTTP URL, e.g. http://127.0.0.1:41234 (ws:// on the same port). */
  url: string;
  /** Its gRPC URL, e.g. grpc://127.0.0.1:41235. */
  grpcUrl: string;
  /** SIGTERM, then waits for the exit (the server closes its browser). */
  stop(): Promise<void>;
}

const READY = /listening on (http:\/\/\S+) .*gRPC: (grpc:\/\/[^,\s]+)/;

/**
 * Starts `gauntlet-env serve` on a free loopback port as a child process and resolves once it
 * announces its URL (its browser is up by then). The child dies with this process's exit.
 */
export async function startLocalEnv(
  options: {
    bin?: string;
    extraArgs?: string[];
    timeoutMs?: number;
    progress?: Progress;
    /** The child's environment (default this process's), e.g. a DISPLAY for a headed browser. */
    env?: NodeJS.ProcessEnv;
  } = {},
): Promise<LocalEnv> {
  const bin = options.bin ?? findEnvBin();
  const args = ['serve', '--port', '0', '--grpc-port', '0', '--host', '127.0.0.1', ...(options.extraArgs ?? [])];
  options.progress?.(`starting a local env server (${bin} ${args.join(' ')})`);
  const child = await startChildBin(bin, args, {
    what: `--env-bin ${bin}: the local env server`,
    ready: READY,
    timeoutMs: options.timeoutMs ?? 120_000,
    ...(options.env ? { env: options.env } : {}),
  });
  const [url, grpcUrl] = [child.match[1]!, child.match[2]!];
  options.progress?.(`local env server at ${url}`);
  return {
    url,
    grpcUrl,
    stop: () => child.stop(),
  };
}
