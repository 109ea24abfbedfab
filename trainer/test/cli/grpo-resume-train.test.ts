import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tinyModelConfig, tinyModelWeights } from '../../src/model/tiny.js';
import { CheckpointStore } from '../../src/rl/checkpoint/index.js';
import { FULL, trainedWeightNames } from '../../src/train/trainable.js';
import { useTempDirs } from '../support/temp-dir.js';
import { runInProcess } from './run-cli.js';

const tempDir = useTempDirs();

// `grpo --resume` with another --train than the checkpoint's (the shared Redis, a fresh prefix):
// it could not continue exactly, so it is refused before anything is submitted.
describe('grpo --resume across --train', () => {
  it('refuses a full-parameter checkpoint under --train lora (exit 2, naming --train)', async () => {
    const outputDir = join(await tempDir(), 'run');
    const config = tinyModelConfig();
    const base = tinyModelWeights(config, 0);
    const weights = new Map(trainedWeightNames(config, FULL).map((name) => [name, base.get(name)!]));
    await new CheckpointStore(join(outputDir, 'checkpoints')).save({
      step: 1,
      version: 1,
      weights,
      optimizer: { step: 1, optimizer: { step: 1, m: new Map(), v: new Map() } },
      rngState: { sampler: 1 },
      config: { run: 'grpo' },
      curriculum: {},
      counters: {},
      baseModel: 'tiny',
    });
    const args = ['grpo', '--task', 'miniwob.click-test', '--output-dir', outputDir, '--resume', '--port', '0'];
    const { code, stderr } = await runInProcess([...args, '--prefix', `test-${randomUUID()}`]);
    expect([code, stderr]).toEqual([
      2,
      expect.stringMatching(
        /grpo: --resume: .*checkpoint-00000001 holds \d+ trained base weights; this run's --train lora trains an adapter and 0; pass the --train it was saved with/,
      ),
    ]);
  }, 60_000);
});
