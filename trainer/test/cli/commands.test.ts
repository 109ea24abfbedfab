import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { initLoraAdapter } from '../../src/lora/adapter.js';
import { makeLoraConfig } from '../../src/lora/config.js';
import { loadAdapter, saveAdapter } from '../../src/lora/peft.js';
import { ModelTokenizer } from '../../src/model/tokenizer.js';
import { loadModel } from '../../src/model/weights.js';
import { referenceLogits } from '../support/reference-forward.js';
import { useTempDirs } from '../support/temp-dir.js';
import { maxAbsDiff, withRandomB } from '../support/tiny-models.js';
import { COMMANDS } from '../../src/cli/commands/index.js';
import type { OptionTable } from '../../src/cli/command.js';
import { runInProcess } from './run-cli.js';

const tempDir = useTempDirs();

async function tinyModelDir(...flags: string[]): Promise<string> {
  const dir = join(await tempDir(), 'model');
  const { code, stderr } = await runInProcess(['init-tiny', dir, ...flags]);
  expect([code, stderr]).toEqual([0, '']);
  return dir;
}

async function adapterDir(modelDir: string): Promise<string> {
  const { config } = await loadModel(modelDir);
  const dir = join(await tempDir(), 'adapter');
  await saveAdapter(
    dir,
    withRandomB(initLoraAdapter(config, makeLoraConfig({ rank: 2, targets: ['q_proj', 'up_proj'] }), 1), 2),
  );
  return dir;
}

describe('cli usage', () => {
  it('serve, sft, dpo, sdft and grpo take --device cpu or cuda and refuse anything else with exit 2', async () => {
    for (const command of ['serve', 'sft', 'dpo', 'sdft', 'grpo']) {
      expect((await runInProcess(['help', command])).stdout, command).toMatch(/--device NAME/);
    }
    const wrong = await runInProcess(['serve', '--device', 'tpu']);
    expect([wrong.code, wrong.stderr]).toEqual([2, expect.stringMatching(/--device must be one of cpu, cuda/)]);
  });

  it('prints help with no command on stderr and exits 2; help <command> works too', async () => {
    expect((await runInProcess([])).code).toBe(2);
    const help = await runInProcess(['help', 'export-adapter']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('--merge');
  });

  it.each([
    [['init-tiny'], 'init-tiny: missing <dir>'],
    [['init-tiny', 'a', 'b'], 'init-tiny: unexpected argument "b"'],
    [['init-tiny', 'a', '--seed'], 'init-tiny: --seed needs a value'],
    [['init-tiny', 'a', '--sed', '3'], 'init-tiny: unknown flag --sed'],
    [['init-tiny', 'a', '--seed=-1'], '--seed must be an integer ≥ 0 (got "-1")'],
    [['init-tiny', 'a', '--seed', '1.5'], '--seed must be an integer ≥ 0 (got "1.5")'],
    [['init-tiny', 'a', '--arch', 'gpt2'], '--arch must be one of llama, qwen2, qwen3 (got "gpt2")'],
    [
      ['init-tiny', 'a', '--heads', '4', '--kv-heads', '3'],
      'init-tiny: <tiny model options>: num_key_value_heads must divide num_attention_heads',
    ],
    [
      ['init-tiny', 'a', '--arch', 'llama', '--prev-token-heads', '1'],
      'init-tiny: --prev-token-heads needs --arch qwen2, whose q/k biases carry the heads (got --arch llama)',
    ],
    [
      ['init-tiny', 'a', '--arch', 'qwen3', '--prev-token-heads', '2'],
      'init-tiny: --prev-token-heads needs --arch qwen2, whose q/k biases carry the heads (got --arch qwen3)',
    ],
    [
      ['init-tiny', 'a', '--heads', '2', '--prev-token-heads', '3'],
      'init-tiny: --prev-token-heads 3 is more than the 2 query heads (--heads); one head each',
    ],
    [['init-tiny', 'a', '--prev-token-heads=-1'], '--prev-token-heads must be an integer ≥ 0 (got "-1")'],
    [
      ['init-tiny', 'a', '--prev-token-offsets', '3,0'],
      'init-tiny: --prev-token-offsets takes positive integers, tokens back (got "0")',
    ],
    [
      ['init-tiny', 'a', '--prev-token-offsets', 'x'],
      'init-tiny: --prev-token-offsets takes positive integers, tokens back (got "x")',
    ],
    [
      ['init-tiny', 'a', '--prev-token-offsets', '4,4'],
      'init-tiny: --prev-token-offsets 4,4 repeats an offset; one head each',
    ],
    [
      ['init-tiny', 'a', '--prev-token-offsets', '3', '--prev-token-heads', '1'],
      'init-tiny: give --prev-token-heads N (offsets 1..N) or --prev-token-offsets K,…, not both',
    ],
    [
      ['init-tiny', 'a', '--arch', 'llama', '--prev-token-offsets', '3'],
      'init-tiny: --prev-token-offsets needs --arch qwen2, whose q/k biases carry the heads (got --arch llama)',
    ],
    [
      ['init-tiny', 'a', '--heads', '2', '--prev-token-offsets', '1,3,5'],
      'init-tiny: --prev-token-offsets 1,3,5 is more than the 2 query heads (--heads); one head each',
    ],
    [['export-adapter', 'a', 'b', '--merge'], 'export-adapter: --merge needs --model DIR'],
    [['--frobnicate'], 'gauntlet-trainer: unknown flag --frobnicate (flags go after the command name; see --help)'],
  ])('%j → exit 2: %s', async (argv, message) => {
    const { code, stderr } = await runInProcess(argv);
    expect(code).toBe(2);
    expect(stderr).toContain(message);
    // One line: the tool and command, what to fix, and where to read more.
    expect(stderr).toMatch(/^gauntlet-trainer( [a-z-]+)?: [^\n]+see --help\)$/);
  });

  it.each(COMMANDS.map((c) => [c.name, c] as const))(
    '%s --help explains every flag it accepts',
    async (name, command) => {
      const { code, stdout } = await runInProcess([name, '--help']);
      expect(code).toBe(0);
      for (const [flag, spec] of Object.entries(command.options as OptionTable)) {
        expect(stdout).toContain(`--${flag}${spec.kind === 'boolean' ? '' : ` ${spec.valueName ?? 'VALUE'}`}  `);
        expect(stdout).toContain(spec.help);
        const shown = spec.defaultText ?? (spec.kind === 'boolean' ? undefined : spec.default);
        if (shown !== undefined) expect(stdout).toContain(`default: ${String(shown)}`);
        if (spec.choices) expect(stdout).toContain(`one of ${spec.choices.join(', ')}`);
      }
    },
  );

  it('prints the version', async () => {
    const { version } = JSON.parse(await readFile(new URL('../../package.json', import.meta.url), 'utf8'));
    expect((await runInProcess(['--version'])).stdout).toBe(version);
  });
});

describe('init-tiny', () => {
  it('honours the size flags and refuses to overwrite a non-empty folder without --force', async () => {
    const dir = await tinyModelDir(
      '--arch',
      'llama',
      '--hidden-size',
      '48',
      '--layers',
      '3',
      '--heads',
      '6',
      '--kv-heads',
      '3',
      '--tie-embeddings',
      'true',
      '--max-positions',
      '8192',
    );
    expect((await loadModel(dir)).config).toMatchObject({
      architecture: 'llama',
      hiddenSize: 48,
      numLayers: 3,
      numHeads: 6,
      numKvHeads: 3,
      headDim: 8,
      tieWordEmbeddings: true,
      maxPositionEmbeddings: 8192,
    });
    const again = await runInProcess(['init-tiny', dir]);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain(`init-tiny: ${dir} is not empty (pass --force to write into it anyway)`);
    expect((await runInProcess(['init-tiny', dir, '--force'])).code).toBe(0);
  });

  it('plants previous-token heads with --prev-token-heads N; 0 writes the same bytes as no flag', async () => {
    const weightsOf = async (...flags: string[]) => readFile(join(await tinyModelDir(...flags), 'model.safetensors'));
    const plain = await weightsOf('--seed', '3');
    expect((await weightsOf('--seed', '3', '--prev-token-heads', '0')).equals(plain)).toBe(true);
    const planted = await loadModel(await tinyModelDir('--seed', '3', '--prev-token-heads', '4'));
    const kBias = planted.weights.get('model.layers.0.self_attn.k_proj.bias')!.data;
    // k is the constant (9, 0) on every rotary pair of both kv heads (plant-heads.ts).
    expect([...kBias.subarray(0, 8)]).toEqual([9, 9, 9, 9, 9, 9, 9, 9]);
    expect([...kBias.subarray(8, 16)]).toEqual([0, 0, 0, 0, 0, 0, 0, 0]);
  });

  it('plants one head per --prev-token-offsets entry; offsets 1,2 are --prev-token-heads 2', async () => {
    const weightsOf = async (...flags: string[]) => readFile(join(await tinyModelDir(...flags), 'model.safetensors'));
    const two = await weightsOf('--seed', '3', '--prev-token-heads', '2');
    expect((await weightsOf('--seed', '3', '--prev-token-offsets', '1,2')).equals(two)).toBe(true);
    const third = await weightsOf('--seed', '3', '--prev-token-offsets', '3');
    expect(third.equals(await weightsOf('--seed', '3', '--prev-token-heads', '1'))).toBe(false);
    expect(third.equals(await weightsOf('--seed', '3'))).toBe(false);
  });

  it('learns a BPE vocabulary from an SFT file or plain text with --vocab-from, up to --vocab-size', async () => {
    const data = join(await tempDir(), 'sft.jsonl');
    const action = { role: 'assistant', content: "click('12')\nfill('13', 'CODE42')" };
    const line = JSON.stringify({ messages: [{ role: 'user', content: 'Press the button [12] button' }, action] });
    await writeFile(data, `${line}\n`.repeat(30));
    const dir = join(await tempDir(), 'model');
    // This little text has only 41 pairs worth merging: the vocabulary stops short of --vocab-size.
    const made = await runInProcess(['init-tiny', dir, '--vocab-from', data, '--vocab-size', '400']);
    expect(made.code).toBe(0);
    expect(made.stderr).toMatch(/^init-tiny: learned 41 merges from 2.3K characters of .*sft\.jsonl/);
    expect(made.stdout).toContain('300 tokens');
    expect((await loadModel(dir)).config.vocabSize).toBe(300);
    const tokenizer = await ModelTokenizer.load(dir);
    expect(tokenizer.encode("click('12')")).toHaveLength(4);

    const text = join(await tempDir(), 'corpus.txt');
    await writeFile(text, 'the cat sat on the mat; '.repeat(50));
    const fromText = await runInProcess(['init-tiny', join(await tempDir(), 'm'), '--vocab-from', text]);
    expect(fromText.stderr).toMatch(/learned \d+ merges from 1.2K characters/);
  });

  it.each([
    [['--vocab-size', '500'], 'init-tiny: --vocab-size needs --vocab-from FILE'],
    [['--vocab-from', 'x.jsonl', '--vocab-size', '259'], '--vocab-size must be an integer ≥ 260 (got "259")'],
  ])('refuses %j with exit 2', async (flags, message) => {
    const { code, stderr } = await runInProcess(['init-tiny', join(await tempDir(), 'm'), ...flags]);
    expect([code, stderr]).toEqual([2, expect.stringContaining(message)]);
  });

  it('names the file and line of a bad --vocab-from record and writes nothing', async () => {
    const data = join(await tempDir(), 'bad.jsonl');
    const good = {
      messages: [
        { role: 'user', content: 'hi' },
        { role: 'assistant', content: 'noop(10)' },
      ],
    };
    await writeFile(data, `${JSON.stringify(good)}\n{"messages": 3}\n`);
    const dir = join(await tempDir(), 'model');
    const { code, stderr } = await runInProcess(['init-tiny', dir, '--vocab-from', data]);
    expect(code).toBe(1);
    expect(stderr).toContain(`${data}:2:`);
    await expect(readFile(join(dir, 'config.json'))).rejects.toThrow(/ENOENT/);
  });
});

describe('inspect', () => {
  it('prints a model config and its checked tensor table', async () => {
    const dir = await tinyModelDir('--arch', 'qwen2');
    const { code, stdout } = await runInProcess(['inspect', dir]);
    expect(code).toBe(0);
    expect(stdout).toContain('qwen2: hidden 64, layers 2, heads 4 (kv 2, head dim 16), intermediate 128, vocab 259');
    expect(stdout).toContain('tied embeddings, q/k/v bias; bos -, eos 258, 256');
    expect(stdout).toMatch(/model\.layers\.0\.self_attn\.q_proj\.bias\s+F32\s+\[64\]/);
    expect(stdout).toContain('check: every expected tensor present with the expected shape');
  });

  it('prints an adapter as JSON', async () => {
    const model = await tinyModelDir();
    const { code, stdout } = await runInProcess(['inspect', await adapterDir(model), '--json']);
    expect(code).toBe(0);
    const report = JSON.parse(stdout);
    expect(report).toMatchObject({ kind: 'adapter', config: { rank: 2, targets: ['q_proj', 'up_proj'] } });
    expect(report.tensors).toContainEqual(
      expect.objectContaining({ name: 'base_model.model.model.layers.1.mlp.up_proj.lora_B.weight', shape: [128, 2] }),
    );
  });

  it('exits 1 listing shape problems, and 2 for a path that is neither model nor adapter', async () => {
    const dir = await tinyModelDir();
    const configFile = join(dir, 'config.json');
    await writeFile(
      configFile,
      JSON.stringify({ ...JSON.parse(await readFile(configFile, 'utf8')), intermediate_size: 96 }),
    );
    const broken = await runInProcess(['inspect', dir]);
    expect(broken.code).toBe(1);
    expect(broken.stderr).toContain(
      'tensor model.layers.0.mlp.gate_proj.weight has shape [128, 64], expected [96, 64]',
    );
    expect((await runInProcess(['inspect', await tempDir()])).code).toBe(2);
  });
});

describe('export-adapter', () => {
  it('re-saves a PEFT adapter with the base model name recorded', async () => {
    const model = await tinyModelDir();
    const out = join(await tempDir(), 'export');
    const { code } = await runInProcess([
      'export-adapter',
      await adapterDir(model),
      out,
      '--model',
      model,
      '--base-model',
      'Qwen/Qwen2.5-0.5B',
    ]);
    expect(code).toBe(0);
    const exported = await loadAdapter(out);
    expect(exported.baseModelNameOrPath).toBe('Qwen/Qwen2.5-0.5B');
    expect(exported.modules.size).toBe(4);
  });

  it('--merge writes a model folder whose logits equal base + adapter', async () => {
    const modelDir = await tinyModelDir('--arch', 'qwen3');
    const adapter = await adapterDir(modelDir);
    const out = join(await tempDir(), 'merged');
    const { code, stdout } = await runInProcess(['export-adapter', adapter, out, '--model', modelDir, '--merge']);
    expect([code, stdout]).toEqual([0, expect.stringContaining('Merged 4 LoRA modules')]);
    const tokens = [257, 104, 105, 258];
    const expected = referenceLogits(await loadModel(modelDir), tokens, { adapter: await loadAdapter(adapter) });
    expect(maxAbsDiff(referenceLogits(await loadModel(out), tokens), expected)).toBeLessThan(1e-5);
    expect(await readFile(join(out, 'tokenizer.json'), 'utf8')).toBe(
      await readFile(join(modelDir, 'tokenizer.json'), 'utf8'),
    );
  });

  it('exits 1 naming the file when the adapter does not fit the model', async () => {
    const adapter = await adapterDir(await tinyModelDir());
    const otherModel = await tinyModelDir('--hidden-size', '32');
    const { code, stderr } = await runInProcess([
      'export-adapter',
      adapter,
      join(await tempDir(), 'x'),
      '--model',
      otherModel,
    ]);
    expect(code).toBe(1);
    expect(stderr).toContain(
      'adapter_model.safetensors: tensor base_model.model.model.layers.0.mlp.up_proj.lora_A.weight: shape [2, 64] does not fit this model (expected [2, 32])',
    );
  });
});
