// `gauntlet-trainer grpo --train full` on the real stack (Redis, the env server, a rollout worker,
// each from its bin): the workers sample from the trainer's own server, whose generation graph
// takes the trained weights as inputs, so every version they play is the one the trainer just
// made. The sampler's log-probs match the trainer's own on every update (the server serves what
// the trainer trains); each version is written as a model folder; a resumed run continues from
// the checkpoint's weights; the result is a model folder.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEnvServer, type EnvServerProcess } from '../../rollout-worker/test/support/env-server.js';
import { ROOT, startProcess, type Started } from '../../rollout-worker/test/support/process.js';
import { freePort, freshConnection, removeQueues } from '../../rollout-worker/test/support/redis.js';

const connection = freshConnection();
const output = mkdtempSync(join(tmpdir(), 'gauntlet-grpo-full-e2e-'));
const versions = join(output, 'versions');
const started: Started[] = [];
let port = 0;

const startTrainer = (steps: number, extra: string[] = []) =>
  startProcess(
    process.execPath,
    [
      join(ROOT, 'trainer/bin/cli.js'),
      'grpo',
      '--train',
      'full',
      '--task',
      'miniwob.click-test',
      '--run-name',
      'full',
      '--group-size',
      '2',
      '--groups-per-update',
      '2',
      '--max-steps',
      String(steps),
      '--max-staleness',
      '0',
      '--max-turns',
      '2',
      '--max-tokens',
      '8',
      // Decoupled weight decay moves every weight at every update whatever the rewards (the tiny
      // model seldom earns one), so each version is a different model: 10 % smaller weights.
      '--lr',
      '0.1',
      '--weight-decay',
      '1',
      '--threads',
      '1',
      '--port',
      String(port),
      '--prefix',
      connection.prefix,
      '--output-dir',
      output,
      '--publish-dir',
      versions,
      '--drain-ms',
      '5000',
      ...extra,
    ],
    /^grpo: run full.*/,
    { timeoutMs: 120_000 },
  );

let env: EnvServerProcess;
beforeAll(async () => {
  env = await startEnvServer(['--max-sessions', '4']);
  started.push(env);
  port = await freePort();
}, 240_000);

afterAll(async () => {
  await Promise.allSettled(started.reverse().map((p) => p.stop()));
  await removeQueues(connection);
  rmSync(output, { recursive: true, force: true });
}, 120_000);

const startWorker = () =>
  startProcess(
    process.execPath,
    [
      join(ROOT, 'rollout-worker/bin/cli.js'),
      'run',
      '--no-metrics',
      '--env',
      env.grpc,
      '--policy',
      `http://127.0.0.1:${port}`,
      '--prefix',
      connection.prefix,
      '--concurrency',
      '2',
      '--name',
      'w1',
    ],
    /^worker ready/,
  );

describe('gauntlet-trainer grpo --train full on the real stack', () => {
  it('workers sample each version with its trained weights; model folders per version; resume; a model folder at the end', async () => {
    let trainer = await startTrainer(2);
    started.push(trainer);
    started.push(await startWorker());
    expect(trainer.output()).toMatch(/policy server http:\/\/127\.0\.0\.1/);
    await trainer.waitFor(/^grpo: finished version 2/, 200_000, true);
    expect(await trainer.exited).toEqual({ code: 0, signal: null });

    // Resumed for one more update: the checkpoint's weights, not the base model's, are trained on.
    trainer = await startTrainer(3, ['--resume']);
    started.push(trainer);
    expect(trainer.ready[0]).toMatch(/resumed at update 2/);
    await trainer.waitFor(/^grpo: finished version 3; model folder \(--train full\)/, 200_000, true);
    expect(await trainer.exited).toEqual({ code: 0, signal: null });

    const updates = readFileSync(join(output, 'metrics.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { version: number; metrics: Record<string, number | null> });
    expect(updates.map((u) => u.version)).toEqual([1, 2, 3]);
    for (const u of updates) {
      expect(Number.isFinite(u.metrics['loss'])).toBe(true);
      // Strictly on-policy (--max-staleness 0): what the workers sampled is scored by the trainer
      // with the weights of the version that sampled it. A server that went on serving the base
      // weights would differ from version 1 on.
      expect(u.metrics['sampling/sampling_logp_difference/max'], `update ${u.version}`).toBeLessThan(1e-3);
    }
    // The resumed run wrote v2 again and v3; the window (max staleness 0: one version) keeps the newest.
    expect(readdirSync(versions)).toEqual(['full@v3']);
    for (const dir of [join(versions, 'full@v3'), join(output, 'final')])
      expect(readdirSync(dir)).toEqual(expect.arrayContaining(['config.json', 'model.safetensors', 'tokenizer.json']));
    expect(readFileSync(join(versions, 'full@v3', 'model.safetensors'))).toEqual(
      readFileSync(join(output, 'final', 'model.safetensors')),
    );
  }, 480_000);
});
