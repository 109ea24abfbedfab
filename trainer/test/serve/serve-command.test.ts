import { describe, expect, it } from 'vitest';
import { serveCommand } from '../../src/cli/commands/serve.js';

describe('gauntlet-trainer serve', () => {
  it('serves the built-in tiny model until aborted, and refuses a malformed --adapter', async () => {
    const controller = new AbortController();
    let announce!: (line: string) => void;
    const announced = new Promise<string>((resolve) => (announce = resolve));
    const io = { out: (line: string) => announce(line), err: () => {} };
    const running = serveCommand.run({ options: { port: '0', threads: '1' }, positionals: [], io, signal: controller.signal });
    const line = await announced;
    expect(line).toMatch(/^serving tiny at http:\/\/127\.0\.0\.1:\d+$/);
    const url = line.split(' at ')[1]!;
    expect((await fetch(`${url}/health`)).status).toBe(200);
    controller.abort();
    await running;
    await expect(fetch(`${url}/health`)).rejects.toThrow();
    await expect(serveCommand.run({ options: { adapter: 'nopath' }, positionals: [], io, signal: controller.signal })).rejects.toThrow(/name=path/);
  });
});
