// `gauntlet-trainer sdft --rollouts` on the real stack, every part its own process started from its
// bin: Redis (the shared test instance, a fresh prefix), the env server, a rollout worker, and the
// sdft command serving the student's versions in process. A few updates on click-test: the
// workers play each published version, every sampled turn is distilled, the adapter loads.
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BROWSER_SYSTEM_PROMPT } from '@gauntlet/proto/agent';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEnvServer, type EnvServerProcess } from '../../rollout-worker/test/support/env-server.js';
import { ROOT, startProcess, type Started } from '../../rollout-worker/test/support/process.js';
import { freePort, freshConnection } from '../../rollout-worker/test/support/redis.js';
import { tearDown } from '../../rollout-worker/test/support/teardown.js';
import { startWorker } from '../../rollout-worker/test/support/worker-process.js';
import { loadAdapter } from '../../trainer/src/lora/peft.js';
import { writeSafetensors } from '../../trainer/src/model/safetensors.js';
import { writeTinyModel } from '../../trainer/src/model/tiny.js';
import { loadModel } from '../../trainer/src/model/weights.js';
import { scaled } from '../../trainer/test/support/tiny-models.js';
import { turnVersions } from './turn-versions.js';

const STEPS = 3;
const connection = freshConnection();
const root = mkdtempSync(join(tmpdir(), 'gauntlet-sdft-rollouts-'));
const out = join(root, 'out');
const started: Started[] = [];
let env: EnvServerProcess;
let trainer: Started;

/** A demonstration of click-test in demo.jsonl's form: one observation, the click that solved it. */
const DEMO = {
  task: 'click-test',
  messages: [
    { role: 'system', content: BROWSER_SYSTEM_PROMPT },
    { role: 'user', content: "# Goal\nClick the button.\n\n# Current page\n[4] button 'Click Me!'" },
    { role: 'assistant', content: "click('4')" },
  ],
};

/** `init-tiny`'s model with its blocks scaled up, so attention reads the prompt (the demo changes the teacher). */
async function writeModel(dir: string): Promise<void> {
  await writeTinyModel(dir, { hiddenSize: 32, numHeads: 4, numKvHeads: 2, seed: 4 });
  const { weights } = await loadModel(dir);
  const blocks = new Map(
    [...weights].map(([n, w]) => [n, /layers\.\d+\.(self_attn|mlp)\./.test(n) ? scaled(w, 20) : w]),
  );
  await writeSafetensors(join(dir, 'model.safetensors'), blocks, { format: 'pt' });
}

beforeAll(async () => {
  const model = join(root, 'tiny');
  await writeModel(model);
  writeFileSync(join(root, 'demo.jsonl'), `${JSON.stringify(DEMO)}\n`);
  env = await startEnvServer(['--max-sessions', '4']);
  started.push(env);
  const port = await freePort();
  // The trainer first: the workers sample from its policy server.
  trainer = await startProcess(
    process.execPath,
    [
      join(ROOT, 'trainer/bin/cli.js'),
      'sdft',
      '--model',
      model,
      '--demo',
      join(root, 'demo.jsonl'),
      '--rollouts',
      '--prefix',
      connection.prefix,
      '--port',
      String(port),
      '--task',
      'click-test',
      '--run-name',
      'e2e',
      '--max-steps',
      String(STEPS),
      '--group-size',
      '2',
      '--groups-per-update',
      '1',
      '--max-staleness',
      '0',
      '--max-turns',
      '2',
      '--max-new-tokens',
      '8',
      '--lr',
      '1e-2',
      '--lora-rank',
      '4',
      '--save-every',
      '2',
      '--drain-ms',
      '5000',
      '--threads',
      '1',
      '--out',
      out,
    ],
    /^sdft: run e2e on click-test.*policy server (http:\/\/\S+)$/,
    { timeoutMs: 120_000 },
  );
  started.push(trainer);
  started.push(
    await startWorker(['--env', env.grpc, '--prefix', connection.prefix, '--concurrency', '2'], {
      policy: trainer.ready[1]!,
    }),
  );
}, 240_000);

afterAll(() => tearDown(started, connection, root), 120_000);

describe('gauntlet-trainer sdft --rollouts on the real stack', () => {
  it('distils the turns the workers played with each published version; rows, checkpoints and the adapter are written', async () => {
    expect(await trainer.exited).toEqual({ code: 0, signal: null });
    const output = trainer.output();
    expect(output).toMatch(
      new RegExp(`^Wrote PEFT adapter \\(r 4, \\d+ modules\\) to ${out}; KL \\S+ → \\S+ in ${STEPS} steps$`, 'm'),
    );
    expect(output).toMatch(
      /^step 1\/3 {2}loss .* rev-kl \S+ {2}sampled \d+ {2}groups 1 \(turns \d+; run: \d+ submitted/m,
    );

    const rows = readFileSync(join(out, 'metrics.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { step: number; metrics: Record<string, number> });
    expect(rows.map((r) => r.step)).toEqual([1, 2, 3]);
    for (const { metrics } of rows) {
      expect(Number.isFinite(metrics['forward_kl'])).toBe(true);
      expect(Number.isFinite(metrics['reverse_kl'])).toBe(true);
      expect(metrics['groups/trained']).toBe(1);
      expect(metrics['turns/distilled']).toBeGreaterThan(0);
      expect(metrics['sampled_tokens']).toBeGreaterThan(0);
    }
    // Strictly on-policy (--max-staleness 0): each update trained on the version before it, and a
    // turn's sampled tokens are what the row counts.
    const versions = await turnVersions(connection, 'e2e');
    for (const version of [0, 1, 2]) expect(versions).toContain(version);

    const counts = JSON.parse(/^sdft: groups (\{.*\})$/m.exec(output)![1]!) as Record<string, number>;
    expect(counts['admitted']).toBeGreaterThanOrEqual(STEPS);
    expect(counts['consumed']! + counts['dropped']! + counts['retired']! + counts['abandoned']!).toBe(
      counts['submitted'],
    );

    expect(readdirSync(join(out, 'checkpoint-2')).sort()).toEqual([
      'adapter_config.json',
      'adapter_model.safetensors',
      'optimizer.safetensors',
      'teacher',
      'trainer_state.json',
    ]);
    const adapter = await loadAdapter(out);
    expect(adapter.config.rank).toBe(4);
    // The student moved: B starts at 0 and the KL's gradient reaches it.
    expect([...adapter.modules.values()].some((m) => m.b.data.some((v) => v !== 0))).toBe(true);
  }, 180_000);
});
