import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadAdapter } from '../../src/lora/peft.js';
import { readSafetensorsHeader } from '../../src/model/safetensors.js';
import { writeTinyModel } from '../../src/model/tiny.js';
import { loadModel } from '../../src/model/weights.js';
import { useTempDirs } from '../support/temp-dir.js';
import { runInProcess, startBin } from './run-cli.js';

const tempDir = useTempDirs();

const system = { role: 'system', content: 'Answer in one word.' };
const ask = (content: string) => [system, { role: 'user', content }];
const reply = (content: string) => [{ role: 'assistant', content }];
const PAIRS = [
  { prompt: ask('color?'), chosen: reply('red'), rejected: reply('blue'), task: 'quiz' },
  { prompt: ask('animal?'), chosen: reply('cat'), rejected: reply('horse') },
  { chosen: [...ask('2+2='), ...reply('4')], rejected: [...ask('2+2='), ...reply('five')] },
  { prompt: 'greet: ', chosen: 'hello', rejected: 'go' },
];

async function setup(lines: readonly unknown[] = PAIRS): Promise<{ root: string; model: string; data: string }> {
  const root = await tempDir();
  const model = join(root, 'model');
  await writeTinyModel(model, { hiddenSize: 32, numHeads: 4, numKvHeads: 2 });
  const data = join(root, 'dpo.jsonl');
  await writeFile(data, lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n') + '\n');
  return { root, model, data };
}

const STEP_LINE = /^step +(\d+)\/\d+ {2}loss (\S+) .* {2}margin (\S+) {2}accuracy (\S+)$/gm;
const steps = (stderr: string) =>
  [...stderr.matchAll(STEP_LINE)].map((m) => ({ loss: Number(m[2]), margin: Number(m[3]), accuracy: Number(m[4]) }));
const dpo = (model: string, data: string, out: string, ...args: string[]) =>
  runInProcess(['dpo', '--model', model, '--data', data, '--out', out, '--threads', '1', ...args]);

/** PEFT's on-disk format, read back as PEFT and vLLM read it. */
async function expectPeftFolder(dir: string, model: string, rank: number): Promise<void> {
  const config = JSON.parse(await readFile(join(dir, 'adapter_config.json'), 'utf8'));
  expect(config).toMatchObject({
    peft_type: 'LORA',
    task_type: 'CAUSAL_LM',
    base_model_name_or_path: model,
    r: rank,
    bias: 'none',
    use_dora: false,
    inference_mode: true,
  });
  const header = await readSafetensorsHeader(join(dir, 'adapter_model.safetensors'));
  expect(header.metadata).toEqual({ format: 'pt' });
  expect(header.entries.map((e) => e.name)).toContain('base_model.model.model.layers.0.self_attn.q_proj.lora_A.weight');
  const adapter = await loadAdapter(dir, { model: (await loadModel(model)).config });
  expect([...adapter.modules.values()].some((m) => m.b.data.some((v) => v !== 0))).toBe(true);
}

const ENV_BIN = fileURLToPath(new URL('../../../env-server/bin/cli.js', import.meta.url));
const ENV_BUILT = fileURLToPath(new URL('../../../env-server/dist/cli/main.js', import.meta.url));

describe('gauntlet-trainer dpo', () => {
  it('trains on the dpo.jsonl `gauntlet-env collect` writes (both run as processes) and writes a PEFT adapter', async () => {
    if (!existsSync(ENV_BUILT)) throw new Error(`${ENV_BUILT} is missing: build first (npm run build)`);
    const { root, model } = await setup();
    const collected = join(root, 'collected');
    const collect = spawnSync(
      process.execPath,
      [ENV_BIN, 'collect', '--out', collected, '--task', 'gauntlet:click_sequence', '--seeds', '1'],
      { encoding: 'utf8', timeout: 120_000 },
    );
    expect([collect.status, collect.stderr]).toEqual([0, expect.any(String)]);
    const data = join(collected, 'dpo.jsonl');
    const pairs = (await readFile(data, 'utf8')).trim().split('\n').length;
    expect(pairs).toBeGreaterThanOrEqual(2);
    const out = join(root, 'adapter');
    const { child, done } = startBin([
      'dpo',
      '--model',
      model,
      '--data',
      data,
      '--out',
      out,
      '--steps',
      '2',
      '--batch-size',
      '2',
      '--lr',
      '1e-2',
      '--rank',
      '4',
      '--threads',
      '1',
    ]);
    const { code, stdout, stderr } = await done;
    expect(child.exitCode).toBe(0);
    expect(stderr).toContain(`dpo: ${pairs} pairs from ${data}; 2 steps of 2 pairs; sigmoid loss, beta 0.1`);
    expect(stderr).toContain('dpo: scoring');
    expect(steps(stderr)).toHaveLength(2);
    expect([code, stdout]).toEqual([0, expect.stringContaining(`Wrote PEFT adapter (r 4, 14 modules) to ${out}`)]);
    await expectPeftFolder(out, model, 4);
    // Two processes one after the other, collect alone allowed 120 s: a loaded machine needs more than the default.
  }, 240_000);

  it('per step: progress with margin and accuracy, TRL-named metrics as JSONL; the margin grows, checkpoints load', async () => {
    const { root, model, data } = await setup();
    const [out, metrics] = [join(root, 'adapter'), join(root, 'metrics.jsonl')];
    const run = await dpo(model, data, out, '--steps', '8', '--lr', '1e-2', '--save-every', '4', '--metrics', metrics);
    expect([run.code, run.stderr]).toEqual([0, expect.stringContaining('sigmoid loss, beta 0.1')]);
    // Scoring the reference reports progress; its last line says every pair is done, with the rate.
    expect(run.stderr).toMatch(/dpo: reference scored (\d+)\/\1 pairs \([\d.]+ pairs\/s\)\n/);
    const curve = steps(run.stderr);
    expect(curve).toHaveLength(8);
    expect(curve[0]).toEqual({ loss: 0.6931, margin: 0, accuracy: 0 });
    expect(curve.at(-1)!.margin).toBeGreaterThan(0.1);
    expect(curve.at(-1)!.loss).toBeLessThan(curve[0]!.loss);
    const rows = (await readFile(metrics, 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(rows.map((r) => r.step)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(Object.keys(rows[0]).sort()).toEqual(
      [
        'step',
        'loss',
        'rewards/chosen',
        'rewards/rejected',
        'rewards/accuracies',
        'rewards/margins',
        'logps/chosen',
        'logps/rejected',
        'grad_norm',
        'learning_rate',
      ].sort(),
    );
    expect(rows.at(-1)['rewards/chosen']).toBeGreaterThan(rows.at(-1)['rewards/rejected']);
    expect((await readdir(out)).sort()).toEqual([
      'adapter_config.json',
      'adapter_model.safetensors',
      'checkpoint-4',
      'metrics.jsonl',
      'reference-logprobs.json',
    ]);
    // The run's own metrics.jsonl: the same metrics per step, in the run report's shape (grpo's).
    const report = (await readFile(join(out, 'metrics.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { step: number; version: number; metrics: Record<string, number> });
    expect(report.map((r) => [r.step, r.version])).toEqual(rows.map((r) => [r.step, r.step]));
    expect(report.map((r) => ({ step: r.step, ...r.metrics }))).toEqual(rows);
    await expectPeftFolder(out, model, 8);
    await expectPeftFolder(join(out, 'checkpoint-4'), model, 8);

    // Starting from that adapter, it is the frozen reference: step 1 has zero margin again.
    const next = await dpo(model, data, join(root, 'next'), '--init-adapter', out, '--steps', '1', '--lr', '1e-2');
    expect(next.stderr).toContain(`from ${out}`);
    expect(next.stderr).toContain(`under the reference (the starting adapter ${out}, frozen)`);
    expect(steps(next.stderr)[0]).toEqual({ loss: 0.6931, margin: 0, accuracy: 0 });
    // Against the base model instead, it starts ahead by what the first run learned.
    const base = await dpo(model, data, join(root, 'vs-base'), '--init-adapter', out, '--ref-base', '--steps', '1');
    expect(base.stderr).toContain('under the reference (the base model, no adapter)');
    expect(steps(base.stderr)[0]!.margin).toBeGreaterThan(0.1);
    const ref = await dpo(model, data, join(root, 'vs-ref'), '--ref-adapter', out, '--steps', '1');
    expect(steps(ref.stderr)[0]!.margin).toBeLessThan(-0.1);
  });

  it('is deterministic: same seed, same adapter bytes', async () => {
    const { root, model, data } = await setup();
    const run = async (dir: string) => {
      const { code } = await dpo(model, data, dir, '--steps', '3', '--seed', '5', '--batch-size', '2');
      expect(code).toBe(0);
      return readFile(join(dir, 'adapter_model.safetensors'));
    };
    expect((await run(join(root, 'a'))).equals(await run(join(root, 'b')))).toBe(true);
  });

  it('stops on an abort with exit 130 and writes no adapter', async () => {
    const { root, model, data } = await setup();
    const controller = new AbortController();
    const out = join(root, 'adapter');
    const { code, stderr } = await runInProcess(
      ['dpo', '--model', model, '--data', data, '--out', out, '--steps', '1000', '--threads', '1'],
      { signal: controller.signal, onErr: (line) => line.startsWith('step ') && controller.abort() },
    );
    expect(stderr).toMatch(/dpo: interrupted after \d+ of 1000 steps/);
    expect(code).toBe(130);
    // No adapter: only the rows of the steps it took (the curves outlive the run) and the
    // reference log-probs, which a rerun into the folder reuses.
    expect((await readdir(out)).sort()).toEqual(['metrics.jsonl', 'reference-logprobs.json']);
  });
});

describe('gauntlet-trainer dpo errors', () => {
  it.each([
    [['--out', 'x'], 'dpo: --data FILE (JSONL training data) is required'],
    [['--data', 'd'], 'dpo: --out DIR (where the adapter goes) is required'],
    [['--data', 'd', '--out', 'o', '--beta', '0'], '--beta must be a number > 0 (got "0")'],
    [['--data', 'd', '--out', 'o', '--label-smoothing', '0.5'], 'dpo: --label-smoothing must be in [0, 0.5) (got 0.5)'],
    [
      ['--data', 'd', '--out', 'o', '--loss-type', 'ipo', '--label-smoothing', '0.1'],
      'dpo: --label-smoothing applies to loss_type sigmoid only (got ipo)',
    ],
    [['--data', 'd', '--out', 'o', '--loss-type', 'hinge'], '--loss-type must be one of sigmoid, ipo (got "hinge")'],
    [['--data', 'd', '--out', 'o', '--epochs', '0'], '--epochs must be an integer ≥ 1 (got "0")'],
    [
      ['--data', 'd', '--out', 'o', '--init-adapter', 'a', '--rank', '4'],
      'dpo: --rank cannot be combined with --init-adapter',
    ],
    [
      ['--data', 'd', '--out', 'o', '--ref-adapter', 'a', '--ref-base'],
      'dpo: --ref-adapter and --ref-base name two references; pass one',
    ],
  ])('%j → exit 2: %s', async (args, message) => {
    const { code, stderr } = await runInProcess(['dpo', ...args]);
    expect(stderr).toContain(message);
    expect(code).toBe(2);
  });

  it('names the file, line and field of a bad record, before any training', async () => {
    const { root, model, data } = await setup([PAIRS[0], { ...PAIRS[1], rejected: [{ role: 'bot', content: 'b' }] }]);
    const { code, stderr } = await dpo(model, data, join(root, 'out'));
    expect({ code, stderr }).toEqual({
      code: 1,
      stderr: `gauntlet-trainer dpo: ${data}:2: rejected[0].role must be one of "system", "user", "assistant" (got "bot")`,
    });
  });

  it('reports cut and left-out pairs by line, and fails naming --max-length when none is left', async () => {
    const long = 'x'.repeat(300);
    const { root, model, data } = await setup([
      PAIRS[0],
      { prompt: 'q: ', chosen: long, rejected: 'no' },
      { prompt: long, chosen: 'yes', rejected: 'no' },
      { prompt: 'q: ', chosen: 'same', rejected: 'same' },
    ]);
    const run = await dpo(model, data, join(root, 'out'), '--max-length', '200', '--steps', '1');
    expect(run.code).toBe(0);
    expect(run.stderr).toContain('dpo: line(s) 2: a side was cut to the first 200 tokens (--max-length)');
    expect(run.stderr).toContain('dpo: left out line(s) 3: a completion starts after 200 tokens');
    expect(run.stderr).toContain('dpo: left out line(s) 4: chosen and rejected are the same tokens');
    expect(run.stderr).toContain(`dpo: 2 pairs from ${data}`);
    const none = await dpo(model, data, join(root, 'none'), '--max-length', '2');
    expect(none.code).toBe(1);
    expect(none.stderr).toContain(`${data}: no pair is left to train on (4 left out; a larger --max-length`);
  });
});
