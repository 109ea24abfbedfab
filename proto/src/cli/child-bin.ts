import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { InfraError } from '../errors.js';

/**
 * Where a bin lives: the nearest node_modules/.bin holding it (walking up from `from`, as npm
 * installs workspace bins), else the bare name for the PATH to resolve.
 */
export function findBin(name: string, from = dirname(fileURLToPath(import.meta.url))): string {
  for (let dir = from; ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', '.bin', name);
    if (existsSync(candidate)) return candidate;
    if (dirname(dir) === dir) return name;
  }
}

export interface ChildBin {
  /** What `ready` matched in the child's output. */
  match: RegExpExecArray;
  /** Resolves with the exit code (or the signal's name) when the child ends, for whatever reason. */
  exited: Promise<number | string>;
  /** SIGTERM, then waits for the exit (SIGKILL after `killAfterMs`). */
  stop(killAfterMs?: number): Promise<void>;
}

export interface ChildBinOptions {
  /** How errors start, naming the child, e.g. "--env-bin gauntlet-env: the local env server". */
  what: string;
  /** Resolves once this matches the child's output (stdout and stderr together). */
  ready: RegExp;
  timeoutMs?: number;
  /** Every complete output line, before and after ready. */
  onLine?: (line: string) => void;
  env?: NodeJS.ProcessEnv;
}

/**
 * Starts `bin args…` as a child process and resolves once its output matches `ready`. If it exits
 * first, cannot be started or stays silent past the timeout, the promise rejects with an
 * InfraError naming the child and its last output lines. The child is killed if this process exits.
 */
export function startChildBin(bin: string, args: readonly string[], options: ChildBinOptions): Promise<ChildBin> {
  const child = spawn(bin, args, { stdio: ['ignore', 'pipe', 'pipe'], env: options.env ?? process.env });
  const exited = new Promise<number | string>((resolve) => {
    child.once('exit', (code, signal) => resolve(code ?? signal ?? 'unknown'));
    // A bin that could not be started (ENOENT) never exits: its error is its end.
    child.once('error', (error) => child.pid === undefined && resolve(error.message));
  });
  const onExit = () => child.kill('SIGKILL');
  process.once('exit', onExit);
  void exited.then(() => process.off('exit', onExit));
  const stop = async (killAfterMs = 30_000) => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), killAfterMs);
    await exited;
    clearTimeout(timer);
  };
  let printed = '';
  let partial = '';
  return new Promise<ChildBin>((resolve, reject) => {
    let ready = false;
    const fail = (why: string) => {
      if (ready) return;
      ready = true;
      clearTimeout(timer);
      const last = printed.trim().split('\n').slice(-3).join(' | ');
      void stop(1000).then(() =>
        reject(new InfraError(`${options.what} ${why}${last ? ` (it printed: ${last})` : ''}`)),
      );
    };
    const timer = setTimeout(() => fail('did not start in time'), options.timeoutMs ?? 120_000);
    const read = (chunk: Buffer) => {
      const text = chunk.toString();
      if (!ready) printed = (printed + text).slice(-20_000);
      if (options.onLine) {
        const lines = (partial + text).split('\n');
        partial = lines.pop() ?? '';
        lines.forEach((line) => options.onLine!(line));
      }
      const match = ready ? null : options.ready.exec(printed);
      if (match) {
        ready = true;
        clearTimeout(timer);
        resolve({ match, exited, stop });
      }
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.once('error', (error) => fail(`could not be started: ${error.message}`));
    void exited.then((code) => fail(`exited (${code}) before it was ready`));
  });
}
