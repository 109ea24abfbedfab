import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LlmPolicy, actionRegex, renderObservation, runEpisode } from '@gauntlet/proto/agent';
import { createEnvClient, type EnvClient } from '@gauntlet/proto/client';
import { PolicyClient } from '@gauntlet/proto/policy-server';
import { Trajectory, rolloutSequence, turnPromptIds } from '@gauntlet/proto/rollout';
import { initLoraAdapter } from '../../src/lora/adapter.js';
import { makeLoraConfig } from '../../src/lora/config.js';
import { writeTinyModel } from '../../src/model/tiny.js';
import { loadModel } from '../../src/model/weights.js';
import { LoraTrainer } from '../../src/train/trainer.js';
import { useTempDirs } from '../support/temp-dir.js';
import { spawnEnvServer, spawnPolicyServer, type Spawned } from './services.js';

// A 3-turn click-test episode played by the tiny model through a real env server and a real
// `gauntlet-trainer serve`, both started as processes. Token-exact means: each turn's prompt is
// the previous prompt + completion + env tokens, and every sampled logprob equals the trainer's
// own log-prob of that token in the final sequence, at the sampling temperature. That takes a
// policy server started with --logprobs-mode processed_logprobs, as rollouts for GRPO need (the
// default, raw_logprobs, reports the model's distribution whatever the temperature, as vLLM).
const tempDir = useTempDirs();
const SYSTEM = 'Click what the goal says.';
let policyServer: Spawned;
let unconstrainedServer: Spawned;
let envServer: Spawned;
let env: EnvClient;
const trainers = new Map<number, LoraTrainer>();
beforeAll(async () => {
  [policyServer, unconstrainedServer, envServer] = await Promise.all([
    spawnPolicyServer(['--logprobs-mode', 'processed_logprobs']),
    spawnPolicyServer(['--logprobs-mode', 'processed_logprobs', '--constrained-logprobs', 'unconstrained']),
    spawnEnvServer(),
  ]);
  env = createEnvClient(envServer.url, { validateReplies: true });
}, 120_000);
afterAll(async () => {
  await env?.close().catch(() => undefined);
  await Promise.all([
    policyServer?.stop(),
    unconstrainedServer?.stop(),
    envServer?.stop(),
    ...[...trainers.values()].map((t) => t.release()),
  ]);
});

/** The trainer on the served model's weights (a fresh adapter adds nothing: B = 0), scoring at `temperature`. */
async function servedModelTrainer(temperature: number): Promise<LoraTrainer> {
  const known = trainers.get(temperature);
  if (known) return known;
  const dir = await tempDir();
  await writeTinyModel(dir, { seed: 0 });
  const { config, weights } = await loadModel(dir);
  const lora = makeLoraConfig({ rank: 2 });
  const trainer = await LoraTrainer.create({
    config,
    weights,
    lora,
    adapter: initLoraAdapter(config, lora, 1),
    temperature,
    schedule: { lr: 0 },
    runtime: { intraOpNumThreads: 1 },
  });
  trainers.set(temperature, trainer);
  return trainer;
}

/** Largest |sampler logprob − trainer log-prob at `temperature`| over the completion tokens of `prompt` + `completion`. */
async function worstLogprobGap(
  rows: { prompt: number[]; completion: number[]; mask: number[]; logprobs: number[] }[],
  temperature: number,
): Promise<number> {
  const scored = (
    await (
      await servedModelTrainer(temperature)
    ).accumulate(
      rows.map((r) => ({ tokens: [...r.prompt, ...r.completion], mask: [...r.prompt.map(() => 0), ...r.mask] })),
    )
  ).logprobs;
  let worst = 0;
  rows.forEach((r, row) =>
    r.mask.forEach((m, i) => {
      if (m === 1) worst = Math.max(worst, Math.abs(scored[row]![r.prompt.length + i]! - r.logprobs[i]!));
    }),
  );
  return worst;
}

describe('token-exact multi-turn episode', () => {
  it('3 turns at temperature 0.7: prompts extend each other, env tokens are the template suffix, logprobs match the trainer at 0.7 (≤ 1e-4)', async () => {
    const client = new PolicyClient(policyServer.url);
    const policy = new LlmPolicy(client, {
      model: 'tiny',
      maxTokens: 12,
      temperature: 0.7,
      seed: 5,
      adapter: null,
      version: 0,
    });
    const trajectory = await runEpisode(env, policy, {
      task: 'click-test',
      seed: 2,
      maxTurns: 3,
      systemPrompt: SYSTEM,
      render: { maxChars: 400 },
    });
    expect(Trajectory.parse(trajectory)).toEqual(trajectory);
    expect(trajectory.error).toBeNull();
    expect(trajectory.turns).toHaveLength(3);

    const firstPrompt = await client.tokenize({
      messages: [
        { role: 'system', content: SYSTEM },
        { role: 'user', content: trajectory.turns[0]!.observation },
      ],
    });
    expect(trajectory.prompt_ids).toEqual(firstPrompt.tokens);
    const [imEnd] = (await client.tokenize({ prompt: '<|im_end|>', add_special_tokens: false })).tokens;
    for (const [k, turn] of trajectory.turns.entries()) {
      expect(turn.policy).toEqual({ model: 'tiny', adapter: null, version: 0 });
      expect(turn.logprobs).toHaveLength(turn.completion_ids.length);
      if (k === 0) continue;
      const previous = trajectory.turns[k - 1]!;
      expect(turnPromptIds(trajectory, k)).toEqual([
        ...turnPromptIds(trajectory, k - 1),
        ...previous.completion_ids,
        ...previous.env_ids,
      ]);
      const { prompt } = await client.detokenize({ tokens: previous.env_ids });
      // A completion that stopped on <|im_end|> holds it; otherwise the env tokens close the turn.
      const closedByModel = previous.completion_ids.at(-1) === imEnd;
      expect(prompt).toBe(
        `${closedByModel ? '' : '<|im_end|>'}\n<|im_start|>user\n${turn.observation}<|im_end|>\n<|im_start|>assistant\n`,
      );
    }
    expect(trajectory.turns[2]!.env_ids).toEqual([]);

    // The trainer scores the final sequence: every completion token, env tokens masked out (logprob 0).
    const sequence = rolloutSequence(trajectory);
    expect(sequence.logprobs.filter((_, i) => sequence.env_mask[i] === 0).every((lp) => lp === 0)).toBe(true);
    expect(sequence.env_mask.filter((m) => m === 1).length).toBeGreaterThan(3);
    const row = {
      prompt: sequence.prompt_ids,
      completion: sequence.completion_ids,
      mask: sequence.env_mask,
      logprobs: sequence.logprobs,
    };
    expect(await worstLogprobGap([row], 0.7)).toBeLessThanOrEqual(1e-4);
    // The model's own log-probs (temperature 1) are not what was sampled from.
    expect(await worstLogprobGap([row], 1)).toBeGreaterThan(1e-3);
  });

  it('constrained replies: with --constrained-logprobs unconstrained the sampler reports what the trainer scores (ratio 1 ± 1e-4 at version 0); drawn values are the grammar-masked ones', async () => {
    const gap = async (server: Spawned) => {
      const policy = new LlmPolicy(new PolicyClient(server.url), {
        model: 'tiny',
        maxTokens: 24,
        temperature: 0.8,
        seed: 7,
        adapter: null,
        version: 0,
        regex: actionRegex(),
      });
      const trajectory = await runEpisode(env, policy, {
        task: 'click-test',
        seed: 3,
        maxTurns: 2,
        systemPrompt: SYSTEM,
      });
      expect(trajectory.error).toBeNull();
      const sequence = rolloutSequence(trajectory);
      const row = {
        prompt: sequence.prompt_ids,
        completion: sequence.completion_ids,
        mask: sequence.env_mask,
        logprobs: sequence.logprobs,
      };
      return worstLogprobGap([row], 0.8);
    };
    expect(await gap(unconstrainedServer)).toBeLessThanOrEqual(1e-4);
    // The random tiny model puts most of its mass outside the grammar: masked values are far higher.
    expect(await gap(policyServer)).toBeGreaterThan(1e-2);
  });

  it('under a context budget, old exchanges are trimmed (system + first observation kept) and each turn still matches its own prompt', async () => {
    const client = new PolicyClient(policyServer.url);
    // Room for the first prompt and about one exchange: the third turn must drop the first exchange.
    const first = renderObservation(
      await env.reset({
        task_name: 'click-test',
        seed: 4,
        observation: { axtree: true, pruned_html: false, extra_properties: false },
      }),
    );
    const head = (
      await client.tokenize({
        messages: [
          { role: 'system', content: SYSTEM },
          { role: 'user', content: first },
        ],
      })
    ).count;
    const policy = new LlmPolicy(client, {
      model: 'tiny',
      maxTokens: 12,
      temperature: 1,
      seed: 9,
      contextTokens: 2 * head + 12,
    });
    const trajectory = await runEpisode(env, policy, {
      task: 'click-test',
      seed: 4,
      maxTurns: 3,
      systemPrompt: SYSTEM,
    });
    expect(trajectory.turns.map((t) => t.trimmed_exchanges)).toEqual([0, 0, 1]);
    const prompts = trajectory.turns.map((_, k) => turnPromptIds(trajectory, k));
    expect(prompts[2]!.slice(0, head)).toEqual(trajectory.prompt_ids);
    expect(prompts[2]!.slice(head)).toEqual([...trajectory.turns[1]!.completion_ids, ...trajectory.turns[1]!.env_ids]);
    for (const prompt of prompts) expect(prompt.length + 12).toBeLessThanOrEqual(2 * head + 12);
    const rows = trajectory.turns.map((t, k) => ({
      prompt: prompts[k]!,
      completion: t.completion_ids,
      mask: t.completion_ids.map(() => 1),
      logprobs: t.logprobs,
    }));
    expect(await worstLogprobGap(rows, 1)).toBeLessThanOrEqual(1e-4);
  });
});
