import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { serveCommand } from '../../src/cli/commands/serve.js';
import type { CommandContext } from '../../src/cli/command.js';
import { parseCommandLine } from '../../src/cli/options.js';
import { initLoraAdapter } from '../../src/lora/adapter.js';
import { makeLoraConfig } from '../../src/lora/config.js';
import { saveAdapter } from '../../src/lora/peft.js';
import { tinyModelConfig } from '../../src/model/tiny.js';
import { useTempDirs } from '../support/temp-dir.js';

const tempDir = useTempDirs();

/** Runs `serve` with these arguments until `use` is done with its URL, then stops it as Ctrl-C would. */
async function serving(args: string[], use: (url: string) => Promise<void>): Promise<void> {
  const controller = new AbortController();
  let announce!: (line: string) => void;
  const announced = new Promise<string>((resolve) => (announce = resolve));
  const { options, positionals } = parseCommandLine(serveCommand, ['--port', '0', '--threads', '1', ...args]);
  const context: CommandContext<typeof serveCommand.options> = {
    options,
    positionals,
    io: { out: (line) => announce(line), err: () => {} },
    signal: controller.signal,
  };
  const running = serveCommand.run(context);
  const line = await Promise.race([
    announced,
    running.then(() => Promise.reject(new Error('serve stopped before it announced a URL'))),
  ]);
  const url = line.split(' at ')[1]!;
  try {
    await use(url);
  } finally {
    controller.abort();
    await running;
  }
  await expect(fetch(`${url}/health`)).rejects.toThrow();
}

async function adapterDirs(count: number): Promise<string[]> {
  const config = tinyModelConfig();
  const root = await tempDir();
  return Promise.all(
    Array.from({ length: count }, async (_, i) => {
      const dir = join(root, `adapter-${i}`);
      await saveAdapter(dir, initLoraAdapter(config, makeLoraConfig({ rank: 2 }), i), { baseModelNameOrPath: 'tiny' });
      return dir;
    }),
  );
}

const models = async (url: string) =>
  ((await (await fetch(`${url}/v1/models`)).json()) as { data: { id: string }[] }).data.map((m) => m.id);

describe('gauntlet-trainer serve', () => {
  it('serves the built-in tiny model until aborted', async () => {
    await serving([], async (url) => {
      expect((await fetch(`${url}/health`)).status).toBe(200);
      expect(await models(url)).toEqual(['tiny']);
    });
  });

  it('loads adapters given as repeated --adapter flags, comma-separated, or listed after one --adapter', async () => {
    const [a, b, c, d] = await adapterDirs(4);
    await serving(['--adapter', `a=${a}`, '--adapter', `b=${b},c=${c}`], async (url) =>
      expect(await models(url)).toEqual(['tiny', 'a', 'b', 'c']),
    );
    await serving(['--adapter', `a=${a}`, `d=${d}`], async (url) =>
      expect(await models(url)).toEqual(['tiny', 'a', 'd']),
    );
  });

  it('sizes the prefix cache with --prefix-cache-tokens (0 turns it off)', async () => {
    const capacity = async (url: string) =>
      /gauntlet:prefix_cache_capacity_tokens (\d+)/.exec(await (await fetch(`${url}/metrics`)).text())?.[1];
    await serving(['--prefix-cache-tokens', '100'], async (url) => expect(await capacity(url)).toBe('96'));
    await serving(['--prefix-cache-tokens', '0'], async (url) => expect(await capacity(url)).toBe('0'));
  });

  it('takes bearer keys from --api-key, else VLLM_API_KEY, else GAUNTLET_TOKEN; /health stays open', async () => {
    const status = (url: string, key?: string) =>
      fetch(`${url}/v1/models`, key ? { headers: { authorization: `Bearer ${key}` } } : {}).then((r) => r.status);
    const saved = { VLLM_API_KEY: process.env['VLLM_API_KEY'], GAUNTLET_TOKEN: process.env['GAUNTLET_TOKEN'] };
    try {
      delete process.env['VLLM_API_KEY'];
      process.env['GAUNTLET_TOKEN'] = 'from-gauntlet';
      await serving([], async (url) => {
        expect(await status(url)).toBe(401);
        expect(await status(url, 'from-gauntlet')).toBe(200);
        expect((await fetch(`${url}/health`)).status).toBe(200);
      });
      process.env['VLLM_API_KEY'] = 'from-vllm';
      await serving([], async (url) =>
        expect([await status(url, 'from-gauntlet'), await status(url, 'from-vllm')]).toEqual([401, 200]),
      );
      await serving(['--api-key', 'a,b', '--api-key', 'c'], async (url) => {
        expect([
          await status(url, 'from-vllm'),
          await status(url, 'a,b'),
          await status(url, 'c'),
          await status(url, 'a'),
        ]).toEqual([401, 200, 200, 401]);
      });
    } finally {
      for (const [name, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
  });

  it('loads runtime adapters only from --adapter-root folders (default: the --adapter folders)', async () => {
    const [a, b] = (await adapterDirs(2)) as [string, string];
    const load = (url: string, path: string) =>
      fetch(`${url}/v1/load_lora_adapter`, {
        method: 'POST',
        body: JSON.stringify({ lora_name: 'new', lora_path: path, load_inplace: true }),
      }).then((r) => r.status);
    await serving(['--adapter', `a=${a}`], async (url) =>
      expect([await load(url, a), await load(url, b)]).toEqual([200, 400]),
    );
    await serving(['--adapter-root', join(b, '..')], async (url) =>
      expect([await load(url, a), await load(url, b)]).toEqual([200, 200]),
    );
    await serving([], async (url) => expect(await load(url, a)).toBe(400));
  });

  it.each([
    [['--adapter-root', '/no/such/folder'], /adapter root folder not found/],
    [
      ['--logprobs-mode', 'final'],
      /--logprobs-mode must be one of raw_logprobs, processed_logprobs, raw_logits, processed_logits/,
    ],
    [['--adapter', 'nopath'], /--adapter takes name=path pairs \(got "nopath"\)/],
    [['stray'], /unexpected argument "stray" \(adapters go after --adapter\)/],
    [['--adapter', 'a=/x', '--adapter', 'a=/y'], /the name "a" is given twice/],
    [['--prefix-cache-tokens=-5'], /--prefix-cache-tokens must be an integer ≥ 0/],
  ])('refuses %j', async (args, message) => {
    // Ranges and choices are the kit's to check (at parsing), the rest the command's (at start).
    const start = async () => {
      const { options, positionals } = parseCommandLine(serveCommand, args);
      const io = { out: () => {}, err: () => {} };
      await serveCommand.run({ options, positionals, io, signal: new AbortController().signal });
    };
    await expect(start()).rejects.toThrow(message);
  });
});
