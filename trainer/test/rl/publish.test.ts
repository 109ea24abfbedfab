import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { initLoraAdapter } from '../../src/lora/adapter.js';
import { makeLoraConfig } from '../../src/lora/config.js';
import { loadAdapter } from '../../src/lora/peft.js';
import { writeTinyModel } from '../../src/model/tiny.js';
import { ModelTokenizer } from '../../src/model/tokenizer.js';
import { loadModel } from '../../src/model/weights.js';
import {
  defaultProbe,
  ExternalPublisher,
  NoServerInRotationError,
  trainerProbe,
  writeAdapterVersion,
} from '../../src/rl/publish/index.js';
import { GrpoLearner } from '../../src/train/grpo/step.js';
import { startServeProcess, type ServeProcess } from '../fuzz/server-process.js';
import { withRandomB } from '../support/tiny-models.js';

let root: string;
let modelDir: string;
let adapterRoot: string;
let server: ServeProcess;
let learner: GrpoLearner;
let tokenizer: ModelTokenizer;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'gauntlet-publish-'));
  [modelDir, adapterRoot] = [join(root, 'tiny-model'), join(root, 'adapters')];
  await writeTinyModel(modelDir);
  await mkdir(adapterRoot);
  const { config, weights } = await loadModel(modelDir);
  tokenizer = await ModelTokenizer.load(modelDir);
  const lora = makeLoraConfig({ rank: 2, alpha: 16 });
  learner = await GrpoLearner.create({
    config,
    weights,
    lora,
    adapter: withRandomB(initLoraAdapter(config, lora, 3), 3),
    // Not 1: the probe must still compare at the servers' temperature 1.
    temperature: 0.9,
    schedule: { lr: 1e-2 },
    runtime: { intraOpNumThreads: 1 },
  });
  server = await startServeProcess(['--model', modelDir, '--adapter-root', adapterRoot]);
});
afterAll(async () => {
  await server?.stop();
  await learner?.release();
  if (root) await rm(root, { recursive: true, force: true });
});

/** A port nothing listens on: a server that is down. */
async function deadUrl(): Promise<string> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return `http://127.0.0.1:${port}`;
}

const listed = async () =>
  ((await (await fetch(`${server.url}/v1/models`)).json()) as { data: { id: string }[] }).data.map((m) => m.id);

describe('ExternalPublisher against a real gauntlet-trainer serve process', () => {
  it('publishes verified versions, unloads old ones, and takes failing servers out of rotation', async () => {
    const dead = await deadUrl();
    const lines: string[] = [];
    const publisher = new ExternalPublisher({
      targets: [{ url: server.url }, { url: dead }],
      keepVersions: 1,
      timeoutMs: 20_000,
      log: (line) => lines.push(line),
    });
    const probeTokens = defaultProbe(tokenizer);
    const publish = async (version: number, expectation?: Awaited<ReturnType<typeof trainerProbe>>) => {
      const name = `run@v${version}`;
      const dir = await writeAdapterVersion(learner.trainer.adapter, join(adapterRoot, name), {
        baseModel: modelDir,
        name,
        version,
      });
      return publisher.publish({ name, version, dir }, expectation ?? (await trainerProbe(learner, probeTokens)));
    };

    const first = await publish(1);
    const [ok, down] = first;
    expect(ok).toMatchObject({ url: server.url, ok: true });
    expect(ok!.maxAbsDiff).toBeLessThan(publisher.tolerance);
    expect(ok!.adapterEffect).toBeGreaterThan(publisher.tolerance);
    expect(down).toMatchObject({ url: dead, ok: false });
    expect(down!.reason).toMatch(/failed load of run@v1/);
    expect(publisher.inRotation().map((t) => t.url)).toEqual([server.url]);
    expect(publisher.removed()).toEqual([{ url: dead, reason: down!.reason, version: 'run@v1' }]);

    // The written folder is a PEFT adapter naming the real model, not a temporary copy.
    const written = await loadAdapter(join(adapterRoot, 'run@v1'));
    expect(written.baseModelNameOrPath).toBe(modelDir);
    const config = JSON.parse(await readFile(join(adapterRoot, 'run@v1', 'adapter_config.json'), 'utf8'));
    expect(config).toMatchObject({ peft_type: 'LORA', r: 2, lora_alpha: 16 });

    withRandomB(learner.trainer.adapter, 4); // the next version's weights
    const second = await publish(2);
    expect(second).toHaveLength(1);
    expect(second[0]).toMatchObject({ ok: true, unloaded: ['run@v1'] });
    expect(await listed()).toEqual([expect.any(String), 'run@v2']);

    // A stale expectation (version 2's log-probs for version 3's weights) fails the probe.
    const stale = await trainerProbe(learner, probeTokens);
    withRandomB(learner.trainer.adapter, 5);
    const failed = publish(3, stale);
    await expect(failed).rejects.toBeInstanceOf(NoServerInRotationError);
    await expect(failed).rejects.toThrow(/failed probe of run@v3: probe log-prob differs by/);
    expect(publisher.inRotation()).toEqual([]);
    expect(publisher.removed().map((r) => [r.url, r.version])).toEqual([
      [dead, 'run@v1'],
      [server.url, 'run@v3'],
    ]);
    await expect(publish(4)).rejects.toBeInstanceOf(NoServerInRotationError);
    expect(lines.filter((l) => l.includes('taken out of rotation'))).toHaveLength(2);
  });

  it('a corrupted adapter file fails the load and takes the server out, whose log says why', async () => {
    const publisher = new ExternalPublisher({ targets: [{ url: server.url }], timeoutMs: 20_000 });
    const name = 'corrupt@v1';
    const dir = await writeAdapterVersion(learner.trainer.adapter, join(adapterRoot, name), { baseModel: modelDir });
    await writeFile(join(dir, 'adapter_model.safetensors'), 'not a safetensors file');
    const failed = publisher.publish({ name, version: 1, dir }, await trainerProbe(learner, defaultProbe(tokenizer)));
    await expect(failed).rejects.toThrow(
      /failed load of corrupt@v1: load_lora_adapter answered 400: .*adapter_model\.safetensors/,
    );
    expect(publisher.removed()).toMatchObject([{ url: server.url, version: name }]);
    expect(server.stderr()).toContain(`load_lora_adapter '${name}'`);
  });
});
