import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The repo root: the other services' bins are started from there, never imported. */
export const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

export interface Started {
  child: ChildProcess;
  /** The ready line's match. */
  ready: RegExpMatchArray;
  /** Everything printed so far (stdout and stderr). */
  output(): string;
  /** Resolves with the first line matching `pattern` printed from now on (or already printed, when `past`). */
  waitFor(pattern: RegExp, timeoutMs?: number, past?: boolean): Promise<RegExpMatchArray>;
  /** Resolves when the process has exited. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** SIGTERM (or `signal`), then waits for the exit. */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/**
 * Starts `command` and resolves once it prints a line matching `ready` (rejects if it exits or
 * takes longer than `timeoutMs` first).
 */
export async function startProcess(
  command: string,
  args: string[],
  ready: RegExp,
  options: { timeoutMs?: number; env?: NodeJS.ProcessEnv; cwd?: string } = {},
): Promise<Started> {
  const child = spawn(command, args, {
    cwd: options.cwd ?? ROOT,
    env: { ...process.env, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  const watchers = new Set<{ pattern: RegExp; resolve: (m: RegExpMatchArray) => void }>();
  const onLine = (line: string) => {
    for (const watcher of watchers) {
      const match = line.match(watcher.pattern);
      if (match) {
        watchers.delete(watcher);
        watcher.resolve(match);
      }
    }
  };
  let partial = '';
  const onData = (chunk: Buffer) => {
    text += chunk.toString();
    partial += chunk.toString();
    const lines = partial.split('\n');
    partial = lines.pop()!;
    lines.forEach(onLine);
  };
  child.stdout!.on('data', onData);
  child.stderr!.on('data', onData);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  const waitFor = (pattern: RegExp, timeoutMs = 60_000, past = false) => {
    if (past) {
      const earlier = text
        .split('\n')
        .map((line) => line.match(pattern))
        .find(Boolean);
      if (earlier) return Promise.resolve(earlier);
    }
    return new Promise<RegExpMatchArray>((resolve, reject) => {
      const watcher = { pattern, resolve: (m: RegExpMatchArray) => (clearTimeout(timer), resolve(m)) };
      const timer = setTimeout(
        () => (
          watchers.delete(watcher),
          reject(
            new Error(
              `no line matching ${pattern} within ${timeoutMs} ms from ${command} ${args.join(' ')}; it printed:\n${text.slice(-3000)}`,
            ),
          )
        ),
        timeoutMs,
      );
      watchers.add(watcher);
      void exited.then(({ code, signal }) => {
        if (!watchers.has(watcher)) return;
        watchers.delete(watcher);
        clearTimeout(timer);
        reject(
          new Error(
            `${command} ${args.join(' ')} exited (${code ?? signal}) before printing ${pattern}; it printed:\n${text.slice(-3000)}`,
          ),
        );
      });
    });
  };
  const match = await waitFor(ready, options.timeoutMs ?? 60_000);
  return {
    child,
    ready: match,
    output: () => text,
    waitFor,
    exited,
    async stop(signal: NodeJS.Signals = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
  };
}
