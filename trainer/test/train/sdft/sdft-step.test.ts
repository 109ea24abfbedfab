import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { copyAdapter, initLoraAdapter, type LoraAdapter } from '../../../src/lora/adapter.js';
import { makeLoraConfig } from '../../../src/lora/config.js';
import type { TrainSequence } from '../../../src/train/batch.js';
import { DistributionScorer } from '../../../src/train/sdft/distribution-scorer.js';
import { sdftLoss, TEACHER_IDS, TEACHER_LOGPROBS } from '../../../src/train/sdft/loss.js';
import { sdftStep, type EncodedState } from '../../../src/train/sdft/step.js';
import { StudentSampler } from '../../../src/cli/commands/sdft/student-sampler.js';
import { teacherTopK } from '../../../src/train/sdft/top-k.js';
import { LoraTrainer } from '../../../src/train/trainer.js';
import { scaled, tinyModel } from '../../support/tiny-models.js';

const tiny = tinyModel({ seed: 4, numLayers: 2 });
const { config } = tiny;
// Seeded blocks at std 0.02 barely read the context (the model is nearly a bigram table); scaled
// up, attention carries what the prompt holds, so a demonstration in it changes the prediction.
const weights = new Map(
  [...tiny.weights].map(([name, w]) => [name, /layers\.\d+\.(self_attn|mlp)\./.test(name) ? scaled(w, 20) : w]),
);
const V = config.vocabSize;
const bytes = (text: string) => [...Buffer.from(text)];
const lora = makeLoraConfig({ rank: 4, alpha: 8 });
const runtime = { intraOpNumThreads: 1 };

// A fake demonstration: the teacher's prompt holds it, the student's does not, so their next-token distributions differ.
const STATES: EncodedState[] = ['Q: first?', 'Q: second one?', 'Q: third?'].map((q) => ({
  student: bytes(q),
  teacher: bytes(`Demo: answer zzz every time.\n${q}`),
}));
// Fixed continuations to measure on, the same before and after training.
const PROBES = [bytes(' zzz'), bytes(' ab'), bytes(' zq')];

/** Reverse KL(student ‖ teacher) per token on the probes, in plain TypeScript (a reference independent of the graph). */
function meanReverseKl(student: Float32Array[], teacher: Float32Array[]): number {
  let sum = 0;
  let rows = 0;
  student.forEach((s, k) => {
    for (let r = 0; r < s.length / V; r++, rows++)
      for (let v = 0; v < V; v++) {
        const [ls, lt] = [s[r * V + v]!, teacher[k]![r * V + v]!];
        sum += Math.exp(ls) * (ls - lt);
      }
  });
  return sum / rows;
}

const withContinuation = (prompt: readonly number[], tail: readonly number[]): TrainSequence => ({
  tokens: [...prompt, ...tail],
  mask: [...prompt.map(() => 0), ...tail.map(() => 1)],
});

let scorer: DistributionScorer;
let sampler: StudentSampler;
beforeAll(async () => {
  scorer = await DistributionScorer.create({ config, weights, lora, runtime });
  sampler = await StudentSampler.create(config, weights, runtime);
});
afterAll(async () => {
  await scorer.release();
  await sampler.release();
});

async function klOnProbes(student: LoraAdapter, teacher: LoraAdapter): Promise<number> {
  const s = await scorer.score(
    STATES.map((x, k) => withContinuation(x.student, PROBES[k]!)),
    student,
  );
  const t = await scorer.score(
    STATES.map((x, k) => withContinuation(x.teacher, PROBES[k]!)),
    teacher,
  );
  return meanReverseKl(s, t);
}

const trainerFor = (mix: number, topK?: number, microBatchSize?: number) =>
  LoraTrainer.create({
    config,
    weights,
    lora,
    seed: 3,
    loss: sdftLoss({ mix, vocab: V, topK }),
    schedule: { lr: 1e-2 },
    runtime,
    ...(microBatchSize ? { microBatchSize } : {}),
  });

describe('SDFT steps on a tiny model (real onnxruntime)', () => {
  test('a demo in the teacher prompt makes the teacher differ; SDFT pulls the student towards it (the KL falls)', async () => {
    const trainer = await trainerFor(1);
    const teacher = copyAdapter(trainer.adapter);
    const target = copyAdapter(teacher); // the teacher as it starts: the base model with the demo in its prompt
    const before = await klOnProbes(trainer.adapter, teacher);
    expect(before).toBeGreaterThan(1e-3);
    const losses: number[] = [];
    for (let step = 0; step < 40; step++) {
      const result = await sdftStep({ trainer, teacher, scorer, sampler }, STATES, {
        emaAlpha: 0.02,
        vocab: V,
        sampling: { temperature: 1, maxTokens: 6 },
        seeds: STATES.map((_, i) => 100 * step + i),
      });
      losses.push(result.loss);
      expect(result.metrics['reverse_kl']).toBeCloseTo(result.loss, 5); // mix 1: the loss is the reverse KL
    }
    const after = await klOnProbes(trainer.adapter, teacher);
    const fromStart = await klOnProbes(trainer.adapter, target);
    console.log(
      `reverse KL on the probes ${before.toFixed(4)} → ${after.toFixed(4)} (${fromStart.toFixed(4)} from the starting teacher); step loss ${losses[0]!.toFixed(4)} → ${losses.at(-1)!.toFixed(4)}`,
    );
    expect(after).toBeLessThan(0.6 * before);
    expect(fromStart).toBeLessThan(0.6 * before); // not only the teacher coming closer: the student moved to it
    expect(losses.slice(-3).reduce((a, b) => a + b) / 3).toBeLessThan(0.6 * losses[0]!);
    // The teacher moved towards the student: it is no longer the adapter it started as.
    expect([...teacher.modules.values()].some((m) => m.b.data.some((v) => v !== 0))).toBe(true);
    await trainer.release();
  });

  test('the loss with teacher rows does not depend on how the batch is split into passes', async () => {
    const sequences = STATES.map((x, k) => withContinuation(x.student, PROBES[k]!));
    const teacher = await scorer.score(
      STATES.map((x, k) => withContinuation(x.teacher, PROBES[k]!)),
      initLoraAdapter(config, lora, 0),
    );
    for (const topK of [undefined, 8]) {
      const rows = sequences.map((s, k): TrainSequence => {
        if (!topK) return { ...s, rows: { [TEACHER_LOGPROBS]: teacher[k]! } };
        const top = teacherTopK(teacher[k]!, V, topK);
        return { ...s, rows: { [TEACHER_LOGPROBS]: top.logprobs, [TEACHER_IDS]: top.ids } };
      });
      const [whole, split] = [await trainerFor(0.5, topK), await trainerFor(0.5, topK, 1)];
      const [a, b] = [await whole.accumulate(rows), await split.accumulate(rows)];
      expect(a.loss).toBeGreaterThan(0);
      expect(b.loss).toBeCloseTo(a.loss, 5);
      expect(b.metrics['forward_kl']).toBeCloseTo(a.metrics['forward_kl']!, 5);
      await Promise.all([whole.release(), split.release()]);
    }
  });

  test('teacher rows of the wrong size are refused, naming the input', async () => {
    const trainer = await trainerFor(1);
    const s = withContinuation(bytes('Q?'), bytes(' a'));
    await expect(trainer.trainStep([{ ...s, rows: { [TEACHER_LOGPROBS]: new Float32Array(V) } }])).rejects.toThrow(
      new RegExp(`rows.teacher_logprobs must hold 2 × ${V} values`),
    );
    await trainer.release();
  });
});
