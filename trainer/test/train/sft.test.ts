import { expect, test } from 'vitest';
import { makeLoraConfig } from '../../src/lora/config.js';
import { ModelRunner } from '../../src/graph/graph-runner.js';
import { tinyModelConfig, tinyModelWeights } from '../../src/model/tiny.js';
import { runSft, type SftExample } from '../../src/train/sft.js';
import { LoraTrainer } from '../../src/train/trainer.js';

const bytes = (s: string) => [...Buffer.from(s, 'utf8')];

test('SFT overfits a few prompt→completion pairs: loss falls ≥ 90 % and greedy decoding reproduces them', async () => {
  const config = tinyModelConfig({ architecture: 'qwen2', hiddenSize: 64, numHeads: 4, numKvHeads: 2, numLayers: 2 });
  const weights = tinyModelWeights(config, 0);
  const eos = config.eosTokenIds[0]!;
  const pairs: [string, string][] = [
    ['2+2=', '4'],
    ['color of sky:', 'blue'],
    ['hi', 'hello!'],
    ['cat says', 'meow'],
  ];
  const examples: SftExample[] = pairs.map(([p, c]) => ({ prompt: bytes(p), completion: [...bytes(c), eos] }));
  const lora = makeLoraConfig({ rank: 8, alpha: 16 });
  const trainer = await LoraTrainer.create({
    config,
    weights,
    lora,
    seed: 1,
    // lr 5e-3 for 300 steps fits every seed tried (1–5); 2e-2 for 150 left some stuck near loss 0.1–0.3.
    schedule: { lr: 5e-3, warmupSteps: 5, decay: 'cosine', totalSteps: 300, minLr: 1e-3 },
    microBatchSize: 2,
    runtime: { intraOpNumThreads: 1 },
  });
  const history = await runSft(trainer, examples, { steps: 300, batchSize: 4, seed: 2 });
  const first = history[0]!.loss;
  const last = history.at(-1)!.loss;
  console.log(
    `SFT loss ${first.toFixed(3)} → ${last.toFixed(4)} (${((1 - last / first) * 100).toFixed(1)} % lower) in ${history.length} steps`,
  );
  expect(history[0]!.microBatches).toBe(2);
  expect(last).toBeLessThan(0.1 * first);

  const runner = await ModelRunner.create(config, weights, { lora, runtime: { intraOpNumThreads: 1 } });
  const outputs = await runner.greedy(
    examples.map((e) => e.prompt),
    10,
    [eos],
    trainer.adapter,
  );
  expect(outputs).toEqual(examples.map((e) => e.completion));
  await runner.release();
  await trainer.release();
});
