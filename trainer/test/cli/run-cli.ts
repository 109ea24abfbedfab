import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { main } from '../../src/cli/main.js';

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the CLI in-process (from source) and captures what it prints. */
export async function runInProcess(argv: string[]): Promise<CliResult> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(argv, { out: (l) => out.push(l), err: (l) => err.push(l) });
  return { code, stdout: out.join('\n'), stderr: err.join('\n') };
}

export const BIN = fileURLToPath(new URL('../../bin/cli.js', import.meta.url));
const BUILT = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));

/** Runs `node trainer/bin/cli.js` as a user would; needs the build (`npm run build` / `npx tsc -b trainer`). */
export function runBin(argv: string[]): CliResult {
  if (!existsSync(BUILT)) throw new Error(`${BUILT} is missing: build first (npx tsc -b trainer)`);
  const result = spawnSync(process.execPath, [BIN, ...argv], { encoding: 'utf8', timeout: 30_000 });
  return { code: result.status ?? -1, stdout: result.stdout, stderr: result.stderr };
}
