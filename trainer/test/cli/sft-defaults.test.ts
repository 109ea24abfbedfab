import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GAUNTLET_SYSTEM_PROMPT } from '@gauntlet/proto/agent';
import { describe, expect, it } from 'vitest';
import { loadAdapter } from '../../src/lora/peft.js';
import { writeTinyModel } from '../../src/model/tiny.js';
import { useTempDirs } from '../support/temp-dir.js';
import { runBin, runInProcess } from './run-cli.js';

const tempDir = useTempDirs();

/** An observation as `gauntlet-env collect` renders it: goal, page, last action, then a tree of `lines` lines. */
function observation(step: number, turn: number, lines: number): string {
  const tree = Array.from({ length: lines }, (_, i) => `\t\t[${100 + i}] button 'Option ${i} of step ${step}'`);
  return [
    '# Goal\nComplete the Gauntlet: 30 steps, each with a puzzle that reveals a 6-character code.',
    `# Current page\nhttp://tasks.gauntlet.test/gauntlet/step/${step}`,
    `# Last action\n${turn === 0 ? '(none)' : `click('${100 + turn}')`}`,
    `# Accessibility tree\nRootWebArea 'The Gauntlet — step ${step} of 30', focused\n${tree.join('\n')}`,
  ].join('\n\n');
}

/** One solved step as collect writes it: the system prompt, then observation/action turns. */
function stepRecord(step: number, turns: number, lines = 30) {
  const messages = [{ role: 'system', content: GAUNTLET_SYSTEM_PROMPT }];
  for (let turn = 0; turn < turns; turn++) {
    const last = turn === turns - 1;
    messages.push(
      { role: 'user', content: observation(step, turn, lines) },
      { role: 'assistant', content: last ? `fill('12', 'AB${step}CDE')\nclick('13')` : `click('${101 + turn}')` },
    );
  }
  return { id: `gauntlet#0/step${step}`, task: 'gauntlet', seed: 0, step, reward: 1, messages };
}

async function writeData(records: readonly unknown[]): Promise<string> {
  const file = join(await tempDir(), 'sft.jsonl');
  await writeFile(file, records.map((r) => JSON.stringify(r)).join('\n') + '\n');
  return file;
}

describe('gauntlet-trainer sft defaults on collect-style data', () => {
  it('trains conversations longer than the model allows, dropping their oldest exchanges, with no flags', async () => {
    const root = await tempDir();
    const model = join(root, 'model');
    await writeTinyModel(model, { hiddenSize: 32, numHeads: 4, numKvHeads: 2 }); // max_position_embeddings 4096
    // Observations of ~1.3 K tokens: one- and two-turn steps fit; five-turn steps (~7 K tokens) do not,
    // but do with three exchanges dropped. A huge goal turn cannot fit at all.
    const data = await writeData([
      stepRecord(1, 1),
      stepRecord(2, 5),
      stepRecord(3, 2),
      stepRecord(4, 5),
      stepRecord(5, 1, 150),
    ]);
    const out = join(root, 'adapter');
    const args = ['sft', '--model', model, '--data', data, '--out', out, '--steps', '1', '--threads', '1'];
    const { code, stdout, stderr } = await runInProcess(args);
    expect(stderr).toContain(
      'sft: 2 conversation(s) longer than 4096 tokens lost their 6 oldest exchange(s) in all (system prompt, goal turn and final actions kept)',
    );
    expect(stderr).toContain(
      "sft: dropped line(s) 5: longer than 4096 tokens even with only the system prompt, goal turn and final actions; to keep them, the model allows no more (max_position_embeddings 4096); use a --model with more positions, e.g. one written by 'gauntlet-trainer init-tiny DIR --max-positions 16384'",
    );
    // The default batch of 8 goes through in passes of 8192 / 4096 = 2 sequences, bounding memory.
    expect(stderr).toMatch(/^sft: 4 examples \(\d+ tokens\) from .*; 1 steps of 4 sequences, 2 per pass$/m);
    expect([code, stdout]).toEqual([0, expect.stringContaining(`Wrote PEFT adapter`)]);
    expect((await loadAdapter(out)).baseModelNameOrPath).toBe(model);
  }, 180_000);

  it('names the flag to change when nothing fits', async () => {
    const root = await tempDir();
    const model = join(root, 'model');
    await writeTinyModel(model, { hiddenSize: 32, numHeads: 4, numKvHeads: 2 });
    const data = await writeData([stepRecord(1, 3), stepRecord(2, 1)]);
    const run = (...extra: string[]) =>
      runInProcess(['sft', '--model', model, '--data', data, '--out', join(root, 'adapter'), ...extra]);
    expect(await run('--max-length', '1000')).toMatchObject({
      code: 1,
      stderr: expect.stringContaining(
        `${data}: no example fits within 1000 tokens; raise --max-length (the model allows up to 4096)`,
      ),
    });
    const small = join(root, 'small');
    await writeTinyModel(small, { hiddenSize: 32, numHeads: 4, numKvHeads: 2, maxPositionEmbeddings: 1024 });
    expect(await run('--model', small)).toMatchObject({
      code: 1,
      stderr: expect.stringContaining(
        `${data}: no example fits within 1024 tokens; the model allows no more (max_position_embeddings 1024); use a --model with more positions`,
      ),
    });
  });
});

describe('gauntlet-trainer sft without --model', () => {
  it('leaves no model folder in the temp folder, whether it trains or fails, and records base model "tiny"', async () => {
    const scratch = await mkdtemp(join(tmpdir(), 'gauntlet-sft-tmp-'));
    try {
      const good = await writeData([stepRecord(1, 1, 5)]);
      const out = join(await tempDir(), 'adapter');
      const env = { TMPDIR: scratch };
      const trained = runBin(['sft', '--data', good, '--out', out, '--steps', '1', '--threads', '1'], {
        env,
        timeoutMs: 120_000,
      });
      expect(trained.stderr).toContain(
        'training the built-in tiny model (qwen2, seed 0), recorded as base model "tiny"',
      );
      expect(trained.code).toBe(0);
      expect((await loadAdapter(out)).baseModelNameOrPath).toBe('tiny');
      // The model folder is written before the data is read: a bad data file must not strand it either.
      const bad = await writeData([{ messages: [{ role: 'user', content: 'no reply' }] }]);
      const failed = runBin(['sft', '--data', bad, '--out', `${out}-2`], { env, timeoutMs: 120_000 });
      expect([failed.code, failed.stderr]).toEqual([1, expect.stringContaining('has no assistant turn to train on')]);
      // Only our folders: a native library may drop files of its own there.
      expect((await readdir(scratch)).filter((name) => name.startsWith('gauntlet-'))).toEqual([]);
    } finally {
      await rm(scratch, { recursive: true, force: true });
    }
  }, 240_000);
});
