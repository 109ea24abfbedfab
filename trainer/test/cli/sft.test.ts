import { readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadAdapter } from '../../src/lora/peft.js';
import { writeTinyModel } from '../../src/model/tiny.js';
import { loadModel } from '../../src/model/weights.js';
import { useTempDirs } from '../support/temp-dir.js';
import { runBin, runInProcess, startBin } from './run-cli.js';

const tempDir = useTempDirs();

const DATA = [
  {
    messages: [
      { role: 'system', content: 'Be terse.' },
      { role: 'user', content: '2+2=' },
      { role: 'assistant', content: '4' },
    ],
  },
  {
    messages: [
      { role: 'user', content: 'sky?' },
      { role: 'assistant', content: 'blue' },
      { role: 'user', content: 'grass?' },
      { role: 'assistant', content: 'green' },
    ],
  },
  { prompt: 'cat says', completion: ' meow' },
  { prompt: [{ role: 'user', content: 'hi' }], completion: [{ role: 'assistant', content: 'hello!' }], task: 'greet' },
];

async function setup(lines: readonly unknown[] = DATA): Promise<{ model: string; data: string; out: string }> {
  const root = await tempDir();
  const model = join(root, 'model');
  await writeTinyModel(model, { hiddenSize: 32, numHeads: 4, numKvHeads: 2 });
  const data = join(root, 'data.jsonl');
  await writeFile(data, lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n') + '\n');
  return { model, data, out: join(root, 'adapter') };
}

const losses = (stderr: string) => [...stderr.matchAll(/^step +\d+\/\d+ {2}loss (\S+)/gm)].map((m) => Number(m[1]));
const exists = (path: string) =>
  readdir(path).then(
    () => true,
    () => false,
  );

describe('gauntlet-trainer sft', () => {
  it('trains from the spawned bin: progress per step on stderr, loss falls, the PEFT folder and checkpoints load', async () => {
    const { model, data, out } = await setup();
    const { code, stdout, stderr } = runBin([
      'sft',
      '--model',
      model,
      '--data',
      data,
      '--out',
      out,
      '--steps',
      '30',
      '--lr',
      '2e-2',
      '--batch-size',
      '4',
      '--rank',
      '4',
      '--alpha',
      '8',
      '--save-every',
      '20',
      '--threads',
      '1',
    ]);
    expect(stderr).toMatch(
      /^step {2}1\/30 {2}loss \d+\.\d{4} {2}lr 2\.00e-2 {2}grad-norm \d+\.\d{4} {2}tok\/s \d+ {2}eta \d+s$/m,
    );
    expect([code, stdout]).toEqual([0, expect.stringContaining(`Wrote PEFT adapter (r 4, 14 modules) to ${out}`)]);
    const curve = losses(stderr);
    expect(curve).toHaveLength(30);
    expect(curve.at(-1)!).toBeLessThan(0.5 * curve[0]!);
    const { config } = await loadModel(model);
    const adapter = await loadAdapter(out, { model: config });
    expect(adapter).toMatchObject({ baseModelNameOrPath: model, config: { rank: 4, alpha: 8 } });
    expect(adapter.modules.get('model.layers.1.mlp.down_proj')!.b.data.some((v) => v !== 0)).toBe(true);
    expect((await readdir(out)).sort()).toEqual([
      'adapter_config.json',
      'adapter_model.safetensors',
      'checkpoint-20',
      'metrics.jsonl',
    ]);
    // One row per step in the run report's shape (grpo's), which `plot` draws.
    const rows = (await readFile(join(out, 'metrics.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { step: number; version: number; metrics: Record<string, number> });
    expect(rows.map((r) => r.step)).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
    expect(rows[0]).toMatchObject({ version: 1, successByTask: {}, time: expect.any(Number) });
    expect(rows.map((r) => Number(r.metrics['loss']!.toFixed(4)))).toEqual(curve);
    for (const r of rows)
      expect(Object.keys(r.metrics).sort()).toEqual(['grad_norm', 'learning_rate', 'loss', 'num_tokens']);
    await loadAdapter(join(out, 'checkpoint-20'), { model: config });
  });

  it('stops on Ctrl-C (SIGINT) with exit 130 and writes no adapter', async () => {
    const { model, data, out } = await setup();
    const { child, done } = startBin([
      'sft',
      '--model',
      model,
      '--data',
      data,
      '--out',
      out,
      '--steps',
      '100000',
      '--threads',
      '1',
    ]);
    let seen = '';
    child.stderr!.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      if (/^step /m.test(seen) && child.signalCode === null && !child.killed) child.kill('SIGINT');
    });
    const { code, stderr } = await done;
    expect(stderr).toMatch(/sft: interrupted after \d+ of 100000 steps/);
    expect(code).toBe(130);
    // No adapter: only the rows of the steps it took (the curves outlive the run).
    expect(await readdir(out)).toEqual(['metrics.jsonl']);
  });

  it('an aborted run keeps its complete checkpoints and writes no final adapter', async () => {
    const { model, data, out } = await setup();
    const controller = new AbortController();
    const onErr = (line: string) => line.startsWith('sft: saved checkpoint') && controller.abort();
    const { code } = await runInProcess(
      ['sft', '--model', model, '--data', data, '--out', out, '--steps', '1000', '--save-every', '2', '--threads', '1'],
      { signal: controller.signal, onErr },
    );
    expect(code).toBe(130);
    expect((await readdir(out)).sort()).toEqual(['checkpoint-2', 'metrics.jsonl']);
    expect((await loadAdapter(join(out, 'checkpoint-2'))).modules.size).toBe(14);
  });

  it('is deterministic: same seed, same adapter bytes', async () => {
    const { model, data, out } = await setup();
    const run = async (dir: string) => {
      const { code, stderr } = await runInProcess([
        'sft',
        '--model',
        model,
        '--data',
        data,
        '--out',
        dir,
        '--steps',
        '4',
        '--seed',
        '3',
        '--threads',
        '1',
        '--lr',
        '1e-2',
      ]);
      expect([code, stderr]).toEqual([0, expect.any(String)]);
      return readFile(join(dir, 'adapter_model.safetensors'));
    };
    expect((await run(out)).equals(await run(`${out}-again`))).toBe(true);
  });
});

/** A `gauntlet-env collect` record: one solved episode of `task` on `seed`. */
const collected = (task: string, seed: number, action: string) => ({
  id: `${task}-${seed}`,
  episode: `e${seed}`,
  task,
  seed,
  step: 0,
  type: task,
  reward: 1,
  messages: [
    { role: 'system', content: 'Act.' },
    { role: 'user', content: `# Goal\nclick ${seed}` },
    { role: 'assistant', content: action },
  ],
});

describe('gauntlet-trainer sft --demo-conditioned', () => {
  it("trains each collect record again with another seed's demonstration: one pass (or --epochs) takes twice the steps", async () => {
    const { model, data, out } = await setup([
      collected('click-test', 0, "click('4')"),
      collected('click-test', 1, "click('9')"),
    ]);
    const run = (dir: string, ...args: string[]) =>
      runInProcess([
        'sft',
        '--model',
        model,
        '--data',
        data,
        '--out',
        dir,
        '--batch-size',
        '1',
        '--threads',
        '1',
        ...args,
      ]);
    const plain = await run(out);
    const conditioned = await run(`${out}-demo`, '--demo-conditioned');
    expect([plain.code, conditioned.code]).toEqual([0, 0]);
    expect(plain.stderr).toMatch(/^step +2\/2 /m);
    expect(conditioned.stderr).toContain('sft: --demo-conditioned: 2 demo-conditioned copies of the 2 line(s) added');
    expect(conditioned.stderr).toMatch(/^step +4\/4 /m);
    // --epochs counts passes over the examples as loaded, copies included: 1.5 × 4 at 1 per step.
    const longer = await run(`${out}-epochs`, '--demo-conditioned', '--epochs', '1.5');
    expect(longer.code, longer.stderr).toBe(0);
    expect(longer.stderr).toMatch(/^step +6\/6 /m);
  });

  it('refuses data with no two collect records of one task on different seeds, and writes nothing', async () => {
    const { model, data, out } = await setup([...DATA, collected('click-test', 0, "click('4')")]);
    expect(
      await runInProcess(['sft', '--model', model, '--data', data, '--out', out, '--demo-conditioned']),
    ).toMatchObject({
      code: 2,
      stderr: expect.stringContaining(
        `sft: --demo-conditioned: ${data} has no two \`gauntlet-env collect\` records of one task with different seeds`,
      ),
    });
    expect(await exists(out)).toBe(false);
  });
});

describe('gauntlet-trainer sft errors', () => {
  it.each([
    [['--out', 'x'], 'sft: --data FILE (JSONL training data) is required'],
    [['--data', 'd.jsonl'], 'sft: --out DIR (where the adapter goes) is required'],
    [['--data', 'd', '--out', 'o', '--lr', '0'], '--lr must be a number > 0 (got "0")'],
    [['--data', 'd', '--out', 'o', '--lr', 'fast'], '--lr must be a number > 0 (got "fast")'],
    [['--data', 'd', '--out', 'o', '--targets', 'q_proj,lm_head'], 'sft: unknown LoRA targets lm_head'],
    [['--data', 'd', '--out', 'o', '--micro-batch', '0'], '--micro-batch must be an integer ≥ 1 (got "0")'],
    [
      ['--data', 'd', '--out', 'o', '--prompt-loss-weight', 'some'],
      'sft: --prompt-loss-weight must be a number ≥ 0 and ≤ 1 (got "some")',
    ],
    [
      ['--data', 'd', '--out', 'o', '--prompt-loss-weight', '2'],
      'sft: --prompt-loss-weight must be a number ≥ 0 and ≤ 1 (got "2")',
    ],
    [
      ['--data', 'd', '--out', 'o', '--schedule', 'step'],
      '--schedule must be one of constant, linear, cosine (got "step")',
    ],
    [
      ['--data', 'd', '--out', 'o', '--steps', '3', '--warmup', '3'],
      'sft: --schedule linear decays after warmup, so --steps (3) must exceed --warmup (3)',
    ],
  ])('%j → exit 2: %s', async (args, message) => {
    const { code, stderr } = await runInProcess(['sft', ...args]);
    expect(stderr).toContain(message);
    expect(code).toBe(2);
  });

  it('names the file (and line and field) for a missing data file, a bad line, a missing model, a busy --out', async () => {
    const { model, data, out } = await setup([
      DATA[0],
      {
        messages: [
          { role: 'user', content: 'q' },
          { role: 'bot', content: 'a' },
        ],
      },
    ]);
    const run = (...args: string[]) => runInProcess(['sft', '--model', model, '--data', data, '--out', out, ...args]);
    expect(await run()).toMatchObject({
      code: 1,
      stderr: `gauntlet-trainer sft: ${data}:2: messages[1].role must be one of "system", "user", "assistant" (got "bot")`,
    });
    expect(await run('--data', `${data}.missing`)).toMatchObject({
      code: 1,
      stderr: `gauntlet-trainer sft: ${data}.missing: file not found`,
    });
    expect(await run('--model', join(model, 'nope'))).toMatchObject({
      code: 1,
      stderr: expect.stringContaining(`${join(model, 'nope', 'config.json')}: file not found`),
    });
    expect(await run('--max-length', '5000')).toMatchObject({
      code: 2,
      stderr: expect.stringContaining("sft: --max-length 5000 exceeds the model's max_position_embeddings (4096)"),
    });
    expect(await run('--out', data)).toMatchObject({
      code: 2,
      stderr: expect.stringContaining(`sft: --out ${data} exists and is not a folder`),
    });
    const busy = await tempDir();
    await writeFile(join(busy, 'keep.txt'), 'mine');
    expect(await run('--out', busy)).toMatchObject({
      code: 2,
      stderr: expect.stringContaining(`sft: --out ${busy} is not empty (pass --force to overwrite the adapter there)`),
    });
    expect(await exists(out)).toBe(false);
  });
});
