import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const BIN = fileURLToPath(new URL('../../bin/cli.js', import.meta.url));
const BUILT = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));

export interface ServeProcess {
  child: ChildProcess;
  url: string;
  /** What the server logged on stderr (the details its replies leave out). */
  stderr(): string;
  stop(): Promise<void>;
}

/**
 * `gauntlet-trainer serve` as its own process, started as an operator starts it: a crash here is
 * the product's crash, and its stderr is the operator's log.
 */
export async function startServeProcess(flags: string[]): Promise<ServeProcess> {
  if (!existsSync(BUILT)) throw new Error(`${BUILT} is missing: build first (npm run build)`);
  const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--threads', '1', ...flags], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  child.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const found = / at (http:\/\/[\d.]+:\d+)/.exec(out)?.[1];
      if (found) resolve(found);
    });
    void exited.then((code) => reject(new Error(`gauntlet-trainer serve exited (${code}) before it listened: ${err}`)));
  });
  return {
    child,
    url,
    stderr: () => err,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGINT');
      await exited;
    },
  };
}
