import { readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadAdapter } from '../../src/lora/peft.js';
import { writeSafetensors } from '../../src/model/safetensors.js';
import { writeTinyModel } from '../../src/model/tiny.js';
import { loadModel } from '../../src/model/weights.js';
import { scaled } from '../support/tiny-models.js';
import { useTempDirs } from '../support/temp-dir.js';
import { runBin, runInProcess } from './run-cli.js';

const tempDir = useTempDirs();

// A fake demonstration in demo.jsonl's form: three observations, the action taken at each.
const observation = (page: string, last: string) =>
  `# Goal\nLog in as ann\n\n# Current page\n${page}\n\n# Last action\n${last}`;
const DEMO = {
  id: 'login-user#1/demo',
  episode: 'login-user#1',
  task: 'login-user',
  seed: 1,
  step: 1,
  type: 'login-user',
  reward: 1,
  messages: [
    { role: 'system', content: 'You act in a browser.' },
    { role: 'user', content: observation('/login', '(none)') },
    { role: 'assistant', content: "fill('3', 'ann')", reward: 0 },
    { role: 'user', content: observation('/login', "fill('3', 'ann')") },
    { role: 'assistant', content: "fill('5', 'pw')", reward: 0 },
    { role: 'user', content: observation('/login', "fill('5', 'pw')") },
    { role: 'assistant', content: "click('7')", reward: 1 },
  ],
};

/**
 * `init-tiny`'s model with its blocks scaled up: at the seeded std of 0.02 they barely read the
 * context (the model is close to a bigram table), so a demonstration in the prompt would change
 * next to nothing; scaled, attention carries it and the teacher differs from the student.
 */
async function setup(): Promise<{ root: string; model: string; demo: string }> {
  const root = await tempDir();
  const model = join(root, 'model');
  await writeTinyModel(model, { hiddenSize: 32, numHeads: 4, numKvHeads: 2, seed: 4 });
  const { weights } = await loadModel(model);
  const blocks = new Map(
    [...weights].map(([n, w]) => [n, /layers\.\d+\.(self_attn|mlp)\./.test(n) ? scaled(w, 20) : w]),
  );
  await writeSafetensors(join(model, 'model.safetensors'), blocks, { format: 'pt' });
  const demo = join(root, 'demo.jsonl');
  await writeFile(demo, `${JSON.stringify(DEMO)}\n`);
  return { root, model, demo };
}

const TRAIN = [
  '--epochs',
  '32',
  '--batch-size',
  '3',
  '--lr',
  '3e-2',
  '--lora-rank',
  '4',
  '--max-new-tokens',
  '6',
  '--threads',
  '1',
];
const reverseKl = (stderr: string) => [...stderr.matchAll(/ rev-kl (\S+)/g)].map((m) => Number(m[1]));

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

describe('gauntlet-trainer sdft', () => {
  it('from the spawned bin: the student is pulled towards the demo-conditioned teacher, the adapter and checkpoints load, resume continues exactly', async () => {
    const { root, model, demo } = await setup();
    const out = join(root, 'out');
    const full = runBin(['sdft', '--model', model, '--demo', demo, '--out', out, '--save-every', '16', ...TRAIN], {
      timeoutMs: 120_000,
    });
    expect([full.code, full.stdout]).toEqual([
      0,
      expect.stringContaining(`Wrote PEFT adapter (r 4, 14 modules) to ${out}`),
    ]);
    expect(full.stderr).toMatch(/^sdft: 3 demo state\(s\) from .*; 32 steps of 3 states, 32 epoch\(s\)/m);
    expect(full.stderr).toMatch(
      /^step {2}1\/32 {2}loss \d+\.\d{4} {2}lr 3\.00e-2 {2}grad-norm .* {2}fwd-kl \S+ {2}rev-kl \S+ {2}sampled \d+$/m,
    );
    const curve = reverseKl(full.stderr);
    expect(curve).toHaveLength(32);
    const adapter = await loadAdapter(out);
    expect(adapter.config.rank).toBe(4);
    // What SDFT minimises: the KL on the student's own samples (fresh each step, so the mean of 8 steps).
    console.log(`reverse KL per step: ${curve.join(' ')}`);
    expect(mean(curve.slice(0, 8))).toBeGreaterThan(0.1); // the demo in the prompt makes the teacher differ
    expect(mean(curve.slice(-8))).toBeLessThan(0.7 * mean(curve.slice(0, 8)));
    const rows = (await readFile(join(out, 'metrics.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(rows.map((r) => r.step)).toEqual([...Array(32).keys()].map((i) => i + 1));
    expect(Object.keys(rows[0].metrics)).toEqual(
      expect.arrayContaining(['loss', 'forward_kl', 'reverse_kl', 'grad_norm', 'sampled_tokens']),
    );
    expect((await readdir(join(out, 'checkpoint-16'))).sort()).toEqual([
      'adapter_config.json',
      'adapter_model.safetensors',
      'optimizer.safetensors',
      'teacher',
      'trainer_state.json',
    ]);
    // Resumed at step 16 into a second folder, the run samples the same and ends on the very same adapter.
    const again = join(root, 'again');
    const resumed = await runInProcess([
      'sdft',
      '--model',
      model,
      '--demo',
      demo,
      '--out',
      again,
      '--resume',
      join(out, 'checkpoint-16'),
      ...TRAIN,
    ]);
    expect([resumed.code, resumed.stderr]).toEqual([0, expect.stringContaining('resumed from')]);
    expect(reverseKl(resumed.stderr)).toEqual(curve.slice(16));
    const weights = (dir: string) => readFile(join(dir, 'adapter_model.safetensors'));
    expect((await weights(again)).equals(await weights(out))).toBe(true);
  }, 180_000);

  it.each([
    [[], '--demo FILE (demo.json or demo.jsonl from gauntlet-agent record) is required'],
    [['--distillation-alpha', '1.5'], 'sdft: --distillation-alpha must be a number ≥ 0 and ≤ 1 (got "1.5")'],
    [['--ema-alpha=-1'], 'sdft: --ema-alpha must be a number ≥ 0 and ≤ 1 (got "-1")'],
    [['--top-k', '0'], '--top-k must be an integer ≥ 1 (got "0")'],
    [['--top-k', '100000'], '--top-k 100000 exceeds the vocabulary'],
    [['--task', 'book-flight'], '--task book-flight: the demonstration in'],
    [['--teacher-template', 'TEMPLATE'], 'has no {observation}'],
    [['--epochs', 'two'], '--epochs must be an integer ≥ 1 (got "two")'],
    [['--group-size', '4'], 'sdft: --group-size only applies to --rollouts runs'],
    [['--max-steps', '5'], 'sdft: --max-steps only applies to --rollouts runs'],
    [
      ['--rollouts', '--task', 'login-user', '--max-new-tokens', '100000'],
      "sdft: --max-new-tokens (100000) must be below the model's context of",
    ],
    [['--rollouts'], 'sdft: --rollouts needs what to roll out on: --task NAME, or --url URL --goal TEXT'],
    [['--rollouts', '--url', 'https://shop.example/'], 'sdft: --url needs --goal'],
    [['--rollouts', '--goal', 'Log in'], 'sdft: --goal needs --url'],
    [
      ['--rollouts', '--url', 'shop.example', '--goal', 'Log in'],
      '--url "shop.example" must be an absolute http(s) URL',
    ],
    [
      ['--url', 'https://shop.example/', '--goal', 'Log in'],
      'sdft: --url chooses what to roll out on: give --rollouts too',
    ],
    [
      ['--rollouts', '--task', 'login-user', '--resume', 'x'],
      'sdft: --resume cannot continue a --rollouts run exactly',
    ],
    // Checked once the queues answered (the shared test Redis) and the demo is read; nothing is queued.
    [['--rollouts', '--task', 'book-flight', '--prefix', 'sdft-usage'], '--task book-flight: the demonstration in'],
    [
      ['--rollouts', '--url', 'https://shop.example/', '--goal', 'Log in', '--prefix', 'sdft-usage'],
      '--url rolls out on task web: the demonstration in',
    ],
  ])('%j → exit 2 naming the flag: %s', async (flags, message) => {
    const { root, model, demo } = await setup();
    await writeFile(join(root, 'TEMPLATE'), 'Demo: {demonstration}');
    const demoFlags = flags.length === 0 ? [] : ['--demo', demo];
    const argv = [
      'sdft',
      '--model',
      model,
      ...demoFlags,
      '--out',
      join(root, 'out'),
      ...flags.map((f) => (f === 'TEMPLATE' ? join(root, f) : f)),
    ];
    const { code, stderr } = await runInProcess(argv);
    expect([code, stderr]).toEqual([2, expect.stringContaining(message)]);
  });

  it('Ctrl-C stops at the next step: exit 130, the steps taken recorded, no final adapter', async () => {
    const { root, model, demo } = await setup();
    const out = join(root, 'out');
    const controller = new AbortController();
    const { code, stderr } = await runInProcess(['sdft', '--model', model, '--demo', demo, '--out', out, ...TRAIN], {
      signal: controller.signal,
      onErr: (line) => line.startsWith('step ') && controller.abort(),
    });
    expect([code, stderr]).toEqual([130, expect.stringContaining('sdft: interrupted after 1 of 32 steps')]);
    expect((await readdir(out)).sort()).toEqual(['metrics.jsonl']);
  });

  it('reads demo.json through the demo.jsonl beside it, and says so when it is missing', async () => {
    const { root, model, demo } = await setup();
    const lonely = join(await tempDir(), 'demo.json');
    await writeFile(lonely, '{}');
    const missing = await runInProcess(['sdft', '--model', model, '--demo', lonely, '--out', join(root, 'x')]);
    expect([missing.code, missing.stderr]).toEqual([2, expect.stringContaining('no demo.jsonl beside it')]);
    await writeFile(join(root, 'demo.json'), '{}');
    const ok = await runInProcess([
      'sdft',
      '--model',
      model,
      '--demo',
      join(root, 'demo.json'),
      '--out',
      join(root, 'o'),
      '--epochs',
      '1',
      '--batch-size',
      '3',
      '--max-new-tokens',
      '2',
      '--threads',
      '1',
    ]);
    expect([ok.code, ok.stderr]).toEqual([
      0,
      expect.stringContaining(`3 demo state(s) from ${join(root, 'demo.json')}`),
    ]);
    expect(demo).toBe(join(root, 'demo.jsonl'));
  });
});
