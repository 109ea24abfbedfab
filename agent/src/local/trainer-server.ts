import { spawn } from 'node:child_process';
import { InfraError } from '@gauntlet/proto';
import type { Progress } from '@gauntlet/proto/cli';
import { findBin } from '@gauntlet/proto/cli';

export interface TrainerServer {
  /** The server's URL, e.g. http://127.0.0.1:41234 (OpenAI routes under /v1). */
  url: string;
  /** The child's process id (the Ctrl-C test checks it is gone). */
  pid: number;
  /** SIGTERM, then waits for the exit (the trainer closes its sessions and threads). */
  stop(): Promise<void>;
}

export interface TrainerServerOptions {
  /** The `gauntlet-trainer` binary; default: the workspace's, else PATH. */
  bin?: string;
  modelDir: string;
  /** Folders /v1/load_lora_adapter may read from (the adapter's own folder). */
  adapterRoots: string[];
  timeoutMs?: number;
  progress?: Progress;
}

/** A start failure: which flag to fix depends on whether the bin ran at all. */
export class TrainerStartError extends InfraError {
  constructor(
    message: string,
    /** The bin could not be run (not found, not executable), as opposed to exiting on its own. */
    readonly spawnFailed: boolean,
  ) {
    super(message);
  }
}

const READY = /serving \S+ at (http:\/\/\S+)/;

/**
 * Starts `gauntlet-trainer serve --model DIR` on a free loopback port as a child process and
 * resolves once it announces its URL and `/health` answers 200. The child dies with this process's
 * exit, and `stop()` ends it (the caller does, also on Ctrl-C).
 */
export async function startTrainerServer(options: TrainerServerOptions): Promise<TrainerServer> {
  const bin = options.bin ?? findBin('gauntlet-trainer');
  const roots = options.adapterRoots.flatMap((root) => ['--adapter-root', root]);
  const args = ['serve', '--model', options.modelDir, '--port', '0', '--host', '127.0.0.1', ...roots];
  options.progress?.(`starting the model server (${bin} ${args.join(' ')})`);
  const child = spawn(bin, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const onExit = () => child.kill('SIGKILL');
  process.once('exit', onExit);
  const stop = async () => {
    process.off('exit', onExit);
    if (child.pid === undefined) return; // never started: there is no exit to wait for
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
  let printed = '';
  try {
    const url = await new Promise<string>((resolve, reject) => {
      const fail = (why: string, spawnFailed = false) => {
        clearTimeout(timer);
        const last = printed.trim().split('\n').slice(-2).join(' | ');
        reject(new TrainerStartError(`the model server ${why}${last ? ` (it printed: ${last})` : ''}`, spawnFailed));
      };
      const timer = setTimeout(() => fail('did not start'), options.timeoutMs ?? 120_000);
      const onData = (chunk: Buffer) => {
        if (READY.test(printed)) return;
        printed += chunk.toString();
        const match = READY.exec(printed);
        if (match) {
          clearTimeout(timer);
          resolve(match[1]!);
        }
      };
      child.stdout.on('data', onData);
      child.stderr.on('data', onData);
      child.once('error', (error) => fail(`could not be started: ${error.message}`, true));
      child.once('exit', (code, signal) => fail(`exited (${signal ?? code}) before listening`));
    });
    // Past its start line the server's own log is not ours to print; keep the pipes drained.
    child.stdout.resume();
    child.stderr.resume();
    await waitHealthy(url, options.timeoutMs ?? 120_000, () => child.exitCode ?? child.signalCode);
    options.progress?.(`model server (pid ${child.pid}) at ${url}`);
    return { url, pid: child.pid!, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** Polls GET /health until 200 (it answers 503 while busy preparing an input); fails at once if the server exits. */
async function waitHealthy(url: string, timeoutMs: number, exited: () => number | string | null): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (let wait = 50; ; wait = Math.min(wait * 2, 1000)) {
    const status = await fetch(`${url}/health`, { signal: AbortSignal.timeout(10_000) }).then(
      (r) => r.status,
      () => 0,
    );
    if (status === 200) return;
    if (exited() !== null)
      throw new TrainerStartError(`the model server at ${url} exited (${exited()}) before it was healthy`, false);
    if (Date.now() > deadline)
      throw new TrainerStartError(`the model server at ${url} did not become healthy (/health: ${status})`, false);
    await new Promise((resolve) => setTimeout(resolve, wait));
  }
}
