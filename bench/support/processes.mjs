// Starting the services' bins as processes, for benchmarks that run the real stack.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/**
 * Starts `<service>/bin/cli.js args…` as its own process; resolves once `ready` matches its
 * output, with the match, the output so far (`output()`), and `stop()` (SIGTERM, then waits).
 * `onLine` sees every output line (for progress).
 */
export function startBin(service, args, ready, { timeoutMs = 120_000, onLine, env } = {}) {
  const child = spawn(process.execPath, [`${ROOT}${service}/bin/cli.js`, ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...env },
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
  let output = '';
  let partial = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () =>
        void stop().then(() =>
          reject(new Error(`${service} ${args[0]} not ready within ${timeoutMs} ms:\n${output.slice(-2000)}`)),
        ),
      timeoutMs,
    );
    let started = false;
    const read = (chunk) => {
      const text = chunk.toString();
      output = (output + text).slice(-200_000);
      if (onLine) {
        const lines = (partial + text).split('\n');
        partial = lines.pop();
        for (const line of lines) onLine(line);
      }
      const match = started ? null : ready.exec(output);
      if (match) {
        started = true;
        clearTimeout(timer);
        resolve({ match, stop, exited, output: () => output, pid: child.pid });
      }
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    void exited.then((code) => {
      clearTimeout(timer);
      if (!started)
        reject(new Error(`${service} ${args[0]} exited (${code}) before it was ready:\n${output.slice(-2000)}`));
    });
  });
}

/** An env server on free ports with room for `sessions` sessions at once: its gRPC URL and stop(). */
export async function startEnvServer(sessions) {
  const env = await startBin(
    'env-server',
    ['serve', '--port', '0', '--grpc-port', '0', '--max-sessions', String(sessions), '--warm', '2'],
    /gRPC: (grpc:\/\/[^,\s)]+)/,
  );
  return { grpc: env.match[1], stop: env.stop };
}
