import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { main } from '../../src/cli/main.js';

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface InProcessOptions {
  signal?: AbortSignal;
  /** Sees each stderr line as it is printed (e.g. to abort after the first progress line). */
  onErr?: (line: string) => void;
}

/** Runs the CLI in-process (from source) and captures what it prints. */
export async function runInProcess(argv: string[], options: InProcessOptions = {}): Promise<CliResult> {
  const out: string[] = [];
  const err: string[] = [];
  const io = { out: (l: string) => out.push(l), err: (l: string) => (err.push(l), options.onErr?.(l)) };
  const code = await main(argv, io, options.signal);
  return { code, stdout: out.join('\n'), stderr: err.join('\n') };
}

export const BIN = fileURLToPath(new URL('../../bin/cli.js', import.meta.url));
const BUILT = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));

/** Runs `node trainer/bin/cli.js` as a user would; needs the build (`npm run build` / `npx tsc -b trainer`). */
export function runBin(argv: string[], options: { env?: NodeJS.ProcessEnv; timeoutMs?: number } = {}): CliResult {
  if (!existsSync(BUILT)) throw new Error(`${BUILT} is missing: build first (npx tsc -b trainer)`);
  const result = spawnSync(process.execPath, [BIN, ...argv], {
    encoding: 'utf8',
    timeout: options.timeoutMs ?? 30_000,
    env: { ...process.env, ...options.env },
  });
  return { code: result.status ?? -1, stdout: result.stdout, stderr: result.stderr };
}

/** Starts the bin without waiting, for tests that signal it mid-run; resolves with its result on exit. */
export function startBin(argv: string[]): { child: ChildProcess; done: Promise<CliResult> } {
  if (!existsSync(BUILT)) throw new Error(`${BUILT} is missing: build first (npx tsc -b trainer)`);
  const child = spawn(process.execPath, [BIN, ...argv], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const done = new Promise<CliResult>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code: code ?? (signal ? -1 : 0), stdout, stderr }));
  });
  return { child, done };
}
