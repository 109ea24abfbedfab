import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LlmPolicy, runEpisode } from '@gauntlet/proto/agent';
import { createEnvClient, type EnvClient } from '@gauntlet/proto/client';
import { PolicyClient } from '@gauntlet/proto/policy';
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
// own log-prob of that token in the final sequence.
const tempDir = useTempDirs();
let policyServer: Spawned;
let envServer: Spawned;
let env: EnvClient;
beforeAll(async () => {
  [policyServer, envServer] = await Promise.all([spawnPolicyServer(), spawnEnvServer()]);
  env = createEnvClient(envServer.url, { validateReplies: true });
}, 120_000);
afterAll(async () => {
  await env?.close().catch(() => undefined);
  await Promise.all([policyServer?.stop(), envServer?.stop()]);
});

describe('token-exact multi-turn episode', () => {
  it('3 turns: prompts extend each other, env tokens are the template suffix, logprobs match the trainer (≤ 1e-4)', async () => {
    const client = new PolicyClient(policyServer.url);
    const policy = new LlmPolicy(client, { model: 'tiny', maxTokens: 12, temperature: 1, seed: 5, adapter: null, version: 0 });
    const trajectory = await runEpisode(env, policy, { task: 'click-test', seed: 2, maxTurns: 3, systemPrompt: 'Click what the goal says.', render: { maxChars: 400 } });
    expect(Trajectory.parse(trajectory)).toEqual(trajectory);
    expect(trajectory.error).toBeNull();
    expect(trajectory.turns).toHaveLength(3);

    const firstPrompt = await client.tokenize({ messages: [{ role: 'system', content: 'Click what the goal says.' }, { role: 'user', content: trajectory.turns[0]!.observation }] });
    expect(trajectory.prompt_ids).toEqual(firstPrompt.tokens);
    const [imEnd] = (await client.tokenize({ prompt: '<|im_end|>', add_special_tokens: false })).tokens;
    for (const [k, turn] of trajectory.turns.entries()) {
      expect(turn.policy).toEqual({ model: 'tiny', adapter: null, version: 0 });
      expect(turn.logprobs).toHaveLength(turn.completion_ids.length);
      if (k === 0) continue;
      const previous = trajectory.turns[k - 1]!;
      expect(turnPromptIds(trajectory, k)).toEqual([...turnPromptIds(trajectory, k - 1), ...previous.completion_ids, ...previous.env_ids]);
      const { prompt } = await client.detokenize({ tokens: previous.env_ids });
      // A completion that stopped on <|im_end|> holds it; otherwise the env tokens close the turn.
      const closedByModel = previous.completion_ids.at(-1) === imEnd;
      expect(prompt).toBe(`${closedByModel ? '' : '<|im_end|>'}\n<|im_start|>user\n${turn.observation}<|im_end|>\n<|im_start|>assistant\n`);
    }
    expect(trajectory.turns[2]!.env_ids).toEqual([]);

    // The trainer scores the final sequence with the served model's weights (a fresh adapter adds nothing: B = 0).
    const dir = await tempDir();
    await writeTinyModel(dir, { seed: 0 });
    const { config, weights } = await loadModel(dir);
    const lora = makeLoraConfig({ rank: 2 });
    const trainer = await LoraTrainer.create({ config, weights, lora, adapter: initLoraAdapter(config, lora, 1), schedule: { lr: 0 }, runtime: { intraOpNumThreads: 1 } });
    try {
      const sequence = rolloutSequence(trajectory);
      const tokens = [...sequence.prompt_ids, ...sequence.completion_ids];
      const mask = [...sequence.prompt_ids.map(() => 0), ...sequence.env_mask];
      const [scored] = (await trainer.accumulate([{ tokens, mask }])).logprobs;
      let worst = 0;
      sequence.env_mask.forEach((m, i) => {
        const at = sequence.prompt_ids.length + i;
        if (m === 1) worst = Math.max(worst, Math.abs(scored![at]! - sequence.logprobs[i]!));
        else expect(sequence.logprobs[i]).toBe(0);
      });
      expect(sequence.env_mask.filter((m) => m === 1).length).toBeGreaterThan(3);
      expect(worst).toBeLessThanOrEqual(1e-4);
    } finally {
      await trainer.release();
    }
  });
});
