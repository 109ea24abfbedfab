import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { startLocalEnv } from '../src/env/local-env.js';
import { agent, readRun } from './support/agent.js';
import { startFakeChat } from './support/fake-chat.js';
import { startOracleTap } from './support/oracle-tap.js';

// The acceptance run of --mode api: the agent, as users run it, plays the whole 30-step Gauntlet
// against a chat-only server whose answers come from the env's oracle on the very page the agent
// was shown (the tap between agent and env hands them over), so nothing can drift under load.
it('gauntlet-agent run --task gauntlet --mode api solves 30/30 against a chat-only server', async () => {
  const env = await startLocalEnv();
  const tap = await startOracleTap(env.url);
  const chat = await startFakeChat(tap.answer);
  const out = join(mkdtempSync(join(tmpdir(), 'agent-api-')), 'run');
  try {
    const run = await agent(
      ['run', '--env', tap.url, '--mode', 'api', '--task', 'gauntlet', '--seeds', '0', '--out', out],
      {
        OPENAI_BASE_URL: chat.baseUrl,
        OPENAI_MODEL: 'fake-oracle',
      },
    );
    expect(run.errors).toEqual([]);
    expect(run.code).toBe(0);
    expect(run.out.at(-1)).toMatch(/^1\/1 episodes succeeded/);
  } finally {
    await chat.close();
    await tap.close();
    await env.stop();
  }
  // Chat only: no /tokenize, no token ids, no logprobs asked for.
  expect(new Set(chat.paths)).toEqual(new Set(['/v1/chat/completions']));
  expect(chat.requests.some((r) => 'logprobs' in r || 'prompt_token_ids' in r)).toBe(false);

  const { metrics, episodes } = readRun(out);
  const episode = metrics.episodes[0]!;
  expect(episode).toMatchObject({ outcome: 'success', oracle_steps: 0, gauntlet: { solved: 30, total: 30 } });
  expect(episode.model_steps).toBe(episode.steps);
  expect(episode.model_calls).toBe(chat.requests.length);
  expect(episode.gauntlet!.steps).toHaveLength(30);
  expect(episode.gauntlet!.steps.every((s) => s.solved && s.acted === 'model')).toBe(true);
  expect(Object.keys(metrics.gauntlet_types)).toHaveLength(21);
  expect(metrics.totals).toMatchObject({ episodes: 1, successes: 1, success_rate: 1, oracle_steps: 0 });
  expect(metrics.run).toMatchObject({ mode: 'api', model: 'fake-oracle' });
  // Every turn played what the model wrote (its reasoning stripped): the oracle's action, in order.
  const turns = episodes[0]!.turns;
  expect(turns.map((t) => t.action)).toEqual(tap.answered);
  expect(turns.every((t) => t.actor === 'model' && !t.parse_error && t.text.startsWith('<think>'))).toBe(true);
}, 600_000);
