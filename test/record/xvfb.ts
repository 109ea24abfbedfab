import { spawn, type ChildProcess } from 'node:child_process';

export interface VirtualDisplay {
  /** e.g. `:93`, for DISPLAY. */
  display: string;
  stop(): Promise<void>;
}

/**
 * Starts an Xvfb server on a free display number. `-displayfd` makes Xvfb pick the number and
 * write it once it accepts connections, so there is neither a guessed number nor a wait by time.
 */
export async function startXvfb(): Promise<VirtualDisplay> {
  const child: ChildProcess = spawn('Xvfb', ['-displayfd', '3', '-screen', '0', '1280x1024x24', '-nolisten', 'tcp'], {
    stdio: ['ignore', 'ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let errors = '';
  child.stderr!.on('data', (chunk: Buffer) => (errors += chunk.toString()));
  const number = await new Promise<string>((resolve, reject) => {
    let text = '';
    const pipe = child.stdio[3] as NodeJS.ReadableStream;
    pipe.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      if (text.includes('\n')) resolve(text.trim());
    });
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`Xvfb exited (${code}): ${errors.trim()}`)));
  });
  return {
    display: `:${number}`,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
