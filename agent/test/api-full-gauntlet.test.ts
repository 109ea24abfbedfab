import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { startLocalEnv } from '../src/env/local-env.js';
import { agent, readRun } from './support/agent.js';
import { startFakeChat } from './support/fake-chat.js';
import { oracleTwin } from './support/oracle-twin.js';

// The acceptance run of --mode api: a chat-only server that answers from the oracle (through a
// twin episode on the same env) plays the whole 30-step Gauntlet; the agent sees only text.
it('gauntlet-agent run --task gauntlet --mode api solves 30/30 against a chat-only server', async () => {
  const env = await startLocalEnv();
  const twin = oracleTwin(env.url, [{ task: 'gauntlet', seed: 0 }]);
  const chat = await startFakeChat(twin.answer);
  const out = join(mkdtempSync(join(tmpdir(), 'agent-api-')), 'run');
  try {
    const run = await agent(
      ['run', '--env', env.url, '--mode', 'api', '--task', 'gauntlet', '--seeds', '0', '--out', out],
      {
        OPENAI_BASE_URL: chat.baseUrl,
        OPENAI_MODEL: 'fake-oracle',
      },
    );
    expect(run.errors).toEqual([]);
    expect(run.out.at(-1)).toMatch(/^1\/1 episodes succeeded/);
    expect(new Set(chat.paths)).toEqual(new Set(['/v1/chat/completions']));
  } finally {
    await chat.close();
    await twin.close();
    await env.stop();
  }
  const episode = readRun(out).metrics.episodes[0]!;
  expect(episode).toMatchObject({ outcome: 'success', oracle_steps: 0, gauntlet: { solved: 30, total: 30 } });
  expect(episode.model_calls).toBe(episode.steps);
}, 600_000);
