import { describe, expect, it } from 'vitest';
import { InfraError } from '../errors.js';
import { startChildBin } from './child-bin.js';

const node = (script: string) => ['-e', script];

describe('startChildBin', () => {
  it('resolves with what `ready` matched, passes every line on, and stop() ends the child', async () => {
    const lines: string[] = [];
    const child = await startChildBin(
      process.execPath,
      node("console.log('booting'); console.log('listening on http://127.0.0.1:9 now'); setInterval(() => {}, 1000);"),
      { what: 'the test server', ready: /listening on (\S+)/, onLine: (line) => lines.push(line) },
    );
    expect(child.match[1]).toBe('http://127.0.0.1:9');
    await child.stop();
    expect(await child.exited).toBe('SIGTERM');
    expect(lines).toEqual(['booting', 'listening on http://127.0.0.1:9 now']);
  });

  it('a child that exits first, cannot start, or stays silent is an InfraError naming it, with its last lines', async () => {
    const exits = startChildBin(process.execPath, node("console.error('bad flag --x'); process.exit(3);"), {
      what: 'the test server',
      ready: /never/,
    });
    await expect(exits).rejects.toThrow(InfraError);
    await expect(exits).rejects.toThrow(
      /^the test server exited \(3\) before it was ready \(it printed: bad flag --x\)$/,
    );
    await expect(startChildBin('/no/such/bin', [], { what: 'the missing one', ready: /x/ })).rejects.toThrow(
      /^the missing one could not be started: spawn \/no\/such\/bin ENOENT/,
    );
    await expect(
      startChildBin(process.execPath, node('setInterval(() => {}, 1000);'), {
        what: 'the quiet one',
        ready: /x/,
        timeoutMs: 200,
      }),
    ).rejects.toThrow(/^the quiet one did not start in time$/);
  });
});
