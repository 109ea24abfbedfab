// Running a service's bin to completion (a one-shot command such as init-tiny, collect, sft or
// eval), for benchmarks that chain the real commands.
import { spawn } from 'node:child_process';
import { ROOT } from './processes.mjs';

/**
 * Runs `<service>/bin/cli.js args…` and resolves with its stdout once it exits with code 0;
 * stderr lines go to `onLine` (progress). A non-zero exit rejects with the output's tail.
 * `signal` (AbortSignal) ends the process with SIGTERM.
 */
export function runBin(service, args, { onLine, signal } = {}) {
  const child = spawn(process.execPath, [`${ROOT}${service}/bin/cli.js`, ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  let partial = '';
  child.stdout.on('data', (chunk) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk) => {
    const text = chunk.toString();
    stderr = (stderr + text).slice(-20_000);
    const lines = (partial + text).split('\n');
    partial = lines.pop();
    for (const line of lines) onLine?.(line);
  });
  const stop = () => child.kill('SIGTERM');
  signal?.addEventListener('abort', stop, { once: true });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code, sig) => {
      signal?.removeEventListener('abort', stop);
      if (code === 0) resolve(stdout);
      else reject(new Error(`${service} ${args[0]} exited with ${code ?? sig}:\n${(stderr + stdout).slice(-3000)}`));
    });
  });
}
