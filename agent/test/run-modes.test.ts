import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalEnv, type LocalEnv } from '../src/env/local-env.js';
import { agent, readRun } from './support/agent.js';
import { startFakeChat } from './support/fake-chat.js';
import { startOracleTap } from './support/oracle-tap.js';

// A real env server (its bin, real Chromium) with the real MiniWoB++ fixture pages, among them
// tasks without a built-in counterpart and so without an oracle; the agent runs through its CLI.
const PAGES = fileURLToPath(new URL('../../env-server/test/fixtures/miniwob-plusplus/miniwob', import.meta.url));
const NO_ORACLE_TASK = 'miniwob.book-flight';
const TASKS = 'click-button,gauntlet:click_sequence';

let env: LocalEnv;
const dir = mkdtempSync(join(tmpdir(), 'agent-run-'));
beforeAll(async () => {
  env = await startLocalEnv({ extraArgs: ['--miniwob-dir', PAGES] });
}, 120_000);
afterAll(() => env?.stop());

describe('gauntlet-agent run', () => {
  it('--mode oracle plays the env oracle on a MiniWoB-style task and a Gauntlet step, and writes both files', async () => {
    const out = join(dir, 'oracle');
    const run = await agent(['run', '--env', env.url, '--task', TASKS, '--seeds', '0-1', '--out', out]);
    expect(run.errors).toEqual([]);
    expect(run.code).toBe(0);
    expect(run.out.at(-1)).toMatch(/^4\/4 episodes succeeded/);
    const { metrics, episodes } = readRun(out);
    expect(metrics.totals).toMatchObject({
      episodes: 4,
      successes: 4,
      success_rate: 1,
      model_calls: 0,
      model_steps: 0,
    });
    expect(metrics.tasks['click-button']).toMatchObject({ episodes: 2, successes: 2, mean_steps: 1 });
    expect(metrics.gauntlet_types['click_sequence']).toMatchObject({ seen: 2, solved: 2, success_rate: 1 });
    const gauntlet = metrics.episodes.find((e) => e.task === 'gauntlet:click_sequence')!.gauntlet!;
    expect(gauntlet).toMatchObject({
      solved: 1,
      total: 1,
      steps: [{ type: 'click_sequence', solved: true, acted: 'oracle' }],
    });
    expect(episodes).toHaveLength(4);
    expect(episodes[0]!.turns[0]).toMatchObject({ actor: 'oracle', parse_error: false, env_error: '', reward: 1 });
    expect(episodes[0]!.turns[0]!.action).toMatch(/^click\('\w+'\)$/);
  });

  it('--env takes any transport: the same oracle run over WebSocket and gRPC', async () => {
    for (const url of [env.url.replace('http', 'ws'), env.grpcUrl]) {
      const out = join(dir, `oracle-${url.split(':')[0]}`);
      const run = await agent(['run', '--env', url, '--task', TASKS, '--seeds', '3', '--out', out]);
      expect(run.errors, url).toEqual([]);
      expect(readRun(out).metrics.totals, url).toMatchObject({ episodes: 2, successes: 2 });
    }
  });

  it('--mode api solves them through a chat-only server (no /tokenize), stripping <think>, recording usage', async () => {
    const tap = await startOracleTap(env.url);
    const chat = await startFakeChat(tap.answer);
    const out = join(dir, 'api');
    try {
      const run = await agent(
        ['run', '--env', tap.url, '--mode', 'api', '--task', TASKS, '--seeds', '0', '--out', out],
        {
          OPENAI_BASE_URL: chat.baseUrl,
          OPENAI_API_KEY: 'sk-test',
          OPENAI_MODEL: 'fake-oracle',
        },
      );
      expect(run.errors).toEqual([]);
      expect(run.out.at(-1)).toMatch(/^2\/2 episodes succeeded/);
      expect(new Set(chat.paths)).toEqual(new Set(['/v1/chat/completions']));
      expect(chat.requests[0]).toMatchObject({ model: 'fake-oracle', temperature: 0, top_p: 1, max_tokens: 1024 });
      expect(chat.requests[0]!.messages.map((m) => m.role)).toEqual(['system', 'user']);
      // Later prompts carry the earlier replies without their reasoning.
      const later = chat.requests.at(-1)!.messages;
      expect(later.filter((m) => m.role === 'assistant').every((m) => !m.content.includes('<think>'))).toBe(true);
    } finally {
      await chat.close();
      await tap.close();
    }
    const { metrics, episodes } = readRun(out);
    expect(metrics.totals).toMatchObject({ episodes: 2, successes: 2, oracle_steps: 0 });
    expect(metrics.totals.model_calls).toBe(chat.requests.length);
    expect(metrics.totals.tokens_in).toBeGreaterThan(0);
    expect(episodes[1]!.turns.every((t) => t.actor === 'model' && !t.parse_error && t.text.startsWith('<think>'))).toBe(
      true,
    );
    expect(metrics.run).toMatchObject({ mode: 'api', model: 'fake-oracle' });

    const compare = await agent(['compare', join(dir, 'oracle'), out]);
    expect(compare.code).toBe(0);
    const lines = compare.out.join('\n');
    expect(lines).toMatch(/^click-button +100% +100% +±0%/m);
    expect(lines).toMatch(/^click_sequence +100% +100% +±0%/m);
  });

  it('--mode hybrid: the oracle acts where it can; where it has no action the model tries, and every try is recorded', async () => {
    const chat = await startFakeChat(() => ({ text: 'I am not sure what to do here.' }));
    const out = join(dir, 'hybrid');
    try {
      const run = await agent(
        ['run', '--env', env.url, '--mode', 'hybrid', '--task', `click-button,${NO_ORACLE_TASK}`, '--out', out],
        { OPENAI_BASE_URL: chat.baseUrl, OPENAI_MODEL: 'always-wrong' },
      );
      expect(run.errors).toEqual([]);
      expect(run.code).toBe(0);
    } finally {
      await chat.close();
    }
    const { metrics, episodes } = readRun(out);
    expect(metrics.tasks['click-button']).toMatchObject({ successes: 1, oracle_steps: 1, model_steps: 0 });
    const [, failed] = metrics.episodes;
    expect(failed).toMatchObject({
      task: NO_ORACLE_TASK,
      outcome: 'fail',
      success: false,
      oracle_steps: 0,
      model_steps: 3,
    });
    expect(failed!.errors).toEqual({ parse_error: 3, PolicyGaveUpError: 1 });
    expect(episodes[1]!.turns.map((t) => [t.actor, t.oracle_silence, t.action])).toEqual(
      Array(3).fill(['model', 'no_oracle', 'noop()']),
    );
  });
});

it('--mode hybrid: an oracle stuck on a Gauntlet step (--oracle-step-actions) hands the step to the model', async () => {
  const chat = await startFakeChat(() => ({ text: 'no idea' }));
  const out = join(dir, 'hybrid-stuck');
  try {
    const run = await agent(
      [
        'run',
        '--env',
        env.url,
        '--mode',
        'hybrid',
        '--task',
        'gauntlet:click_sequence',
        '--oracle-step-actions',
        '1',
        '--out',
        out,
      ],
      { OPENAI_BASE_URL: chat.baseUrl, OPENAI_MODEL: 'always-wrong' },
    );
    expect(run.code).toBe(0);
  } finally {
    await chat.close();
  }
  const { metrics, episodes } = readRun(out);
  expect(metrics.episodes[0]).toMatchObject({ outcome: 'fail', oracle_steps: 1, model_steps: 3 });
  expect(metrics.episodes[0]!.gauntlet!.steps).toEqual([
    expect.objectContaining({ step: 1, type: 'click_sequence', solved: false, acted: 'both' }),
  ]);
  expect(episodes[0]!.turns.map((t) => t.oracle_silence ?? t.actor)).toEqual(['oracle', 'stuck', 'stuck', 'stuck']);
  // The model saw the oracle's turn in its history when it took over.
  expect(chat.requests[0]!.messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user']);
});

describe('gauntlet-agent run: bad input is one line naming the flag', () => {
  it('an unreachable --base-url stops the run (exit 1) and keeps what was written', async () => {
    const out = join(dir, 'unreachable');
    const port = await closedPort();
    const run = await agent(
      [
        'run',
        '--env',
        env.url,
        '--mode',
        'api',
        '--task',
        'click-button',
        '--out',
        out,
        '--retries',
        '1',
        '--backoff-ms',
        '10',
      ],
      { OPENAI_BASE_URL: `http://127.0.0.1:${port}/v1`, OPENAI_MODEL: 'm' },
    );
    expect(run.code).toBe(1);
    expect(run.errors).toEqual([
      expect.stringMatching(
        /^gauntlet-agent run: --base-url: cannot reach http:\/\/127\.0\.0\.1:\d+\/v1\/chat\/completions \(ECONNREFUSED; 2 tries\)$/,
      ),
    ]);
    expect(readRun(out).metrics.totals.errors).toEqual({ ModelUnreachableError: 1 });
  });

  it('a refused key (401) is exit 1 naming --api-key', async () => {
    const chat = await startFakeChat(() => ({ status: 401, body: '{"error":"bad key"}' }));
    try {
      const run = await agent(
        ['run', '--env', env.url, '--mode', 'api', '--task', 'click-button', '--out', join(dir, '401')],
        {
          OPENAI_BASE_URL: chat.baseUrl,
          OPENAI_API_KEY: 'sk-wrong',
          OPENAI_MODEL: 'm',
        },
      );
      expect(run.code).toBe(1);
      expect(run.errors).toEqual([expect.stringMatching(/^gauntlet-agent run: --api-key: .* refused the key \(401\)/)]);
      expect(chat.requests).toHaveLength(1);
    } finally {
      await chat.close();
    }
  });

  it('a model that never writes a valid action: the episode fails with its parse errors counted, no crash', async () => {
    const chat = await startFakeChat(() => ({ text: 'Let me think about the button.' }));
    const out = join(dir, 'no-action');
    try {
      const run = await agent(
        ['run', '--env', env.url, '--mode', 'api', '--task', 'click-button', '--max-parse-errors', '2', '--out', out],
        { OPENAI_BASE_URL: chat.baseUrl, OPENAI_MODEL: 'm' },
      );
      expect(run.code).toBe(0);
      expect(run.out.at(-1)).toMatch(/^0\/1 episodes succeeded/);
    } finally {
      await chat.close();
    }
    expect(readRun(out).metrics.episodes[0]).toMatchObject({
      outcome: 'fail',
      steps: 2,
      errors: { parse_error: 2, PolicyGaveUpError: 1 },
    });
  });

  it('an unreachable --env stops the run (exit 1); an unknown --task is exit 2', async () => {
    const port = await closedPort();
    const noEnv = await agent(['run', '--env', `http://127.0.0.1:${port}`, '--out', join(dir, 'no-env')]);
    expect(noEnv.code).toBe(1);
    expect(noEnv.errors).toEqual([
      expect.stringMatching(new RegExp(`^gauntlet-agent run: --env http://127.0.0.1:${port}: `)),
    ]);
    const task = await agent(['run', '--env', env.url, '--task', 'no-such-task', '--out', join(dir, 'no-task')]);
    expect(task.code).toBe(2);
    expect(task.errors).toEqual([expect.stringMatching(/^gauntlet-agent run: --task: Unknown task "no-such-task"/)]);
  });

  it('usage errors are exit 2 naming the flag (a missing --env-bin: exit 1)', async () => {
    const noModel = await agent(['run', '--mode', 'api'], {});
    expect(noModel).toMatchObject({
      code: 2,
      errors: [expect.stringMatching(/^gauntlet-agent run: --model is needed/)],
    });
    const seeds = await agent(['run', '--seeds', '5-1'], {});
    expect(seeds).toMatchObject({
      code: 2,
      errors: ['gauntlet-agent run: --seeds: range 5-1 runs backwards (see --help)'],
    });
    const noBin = await agent(['run', '--env-bin', '/no/such/gauntlet-env', '--out', join(dir, 'no-bin')], {});
    expect(noBin).toMatchObject({
      code: 1,
      errors: [expect.stringMatching(/^gauntlet-agent run: --env-bin \/no\/such\/gauntlet-env: .*ENOENT/)],
    });
    const mode = await agent(['run', '--mode', 'remote'], {});
    expect(mode.errors[0]).toMatch(/--mode must be one of oracle, api, hybrid, local/);
  });
});

/** A loopback port nothing listens on (it was free a moment ago). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}
