import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalEnv, type LocalEnv } from '../src/env/local-env.js';
import { findBin } from '@gauntlet/proto/cli';
import { openLocalModel } from '../src/local/local-model.js';
import { actionRegex } from '@gauntlet/proto/agent';
import { agent, readRun } from './support/agent.js';
import { startRecordingProxy } from './support/recording-proxy.js';

// Real processes end to end: init-tiny writes a small model, gauntlet-env collect plays the
// oracle for SFT records, gauntlet-trainer sft trains an adapter on them, and the agent serves
// both through gauntlet-trainer serve and plays them on a real env server (real Chromium).
const run = promisify(execFile);
const TRAINER = findBin('gauntlet-trainer');
const ENV = findBin('gauntlet-env');
const AGENT_BIN = fileURLToPath(new URL('../bin/cli.js', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'agent-local-'));
const MODEL = join(dir, 'model');
const ADAPTER = join(dir, 'adapter');
/** Trained on the built-in tiny model (width 64): it does not fit MODEL (width 32). */
const FOREIGN_ADAPTER = join(dir, 'foreign-adapter');
const FAST = ['--task', 'click-test', '--max-steps', '3', '--max-tokens', '48'];

let env: LocalEnv;
beforeAll(async () => {
  const tiny = ['--hidden-size', '32', '--layers', '1', '--heads', '2', '--max-positions', '2048'];
  const [started] = await Promise.all([
    startLocalEnv(),
    run(TRAINER, ['init-tiny', MODEL, ...tiny]),
    run(ENV, ['collect', '--out', join(dir, 'data'), '--task', 'miniwob.click-test', '--seeds', '0-1', '--no-dpo']),
  ]);
  env = started;
  const sft = ['sft', '--data', join(dir, 'data', 'sft.jsonl'), '--steps', '2', '--batch-size', '1', '--rank', '2'];
  await Promise.all([
    run(TRAINER, [...sft, '--model', MODEL, '--out', ADAPTER]),
    run(TRAINER, [...sft, '--out', FOREIGN_ADAPTER]),
  ]);
}, 180_000);
afterAll(() => env?.stop());

/** The pid the agent printed for its model server. */
const serverPid = (lines: string[]) => Number(/model server \(pid (\d+)\)/.exec(lines.join('\n'))?.[1]);
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('gauntlet-agent run --mode local', () => {
  it('serves --model-dir + --adapter with the trainer, plays, reports, stops the server; compare prints a table', async () => {
    const out = join(dir, 'local');
    const args = ['run', '--env', env.url, '--mode', 'local', '--model-dir', MODEL, '--adapter', ADAPTER];
    const result = await agent([...args, ...FAST, '--seeds', '0-1', '--out', out]);
    expect(result.errors).toEqual([]);
    expect(result.code).toBe(0);
    expect(result.err.join('\n')).toMatch(/context-tokens 32768 is over the served 2048; using 2048/);
    const pid = serverPid(result.err);
    expect(pid).toBeGreaterThan(0);
    expect(alive(pid)).toBe(false);

    const { metrics, episodes } = readRun(out);
    // init-tiny's end tokens: <|endoftext|> (256) and <|im_end|> (258).
    expect(metrics.run).toMatchObject({
      mode: 'local',
      model: 'adapter',
      adapter: ADAPTER,
      max_model_len: 2048,
      stop_token_ids: [256, 258],
    });
    expect(metrics.totals.episodes).toBe(2);
    const outcomes = episodes.map((e) => e.outcome);
    expect(outcomes.every((o) => ['success', 'fail', 'timeout'].includes(o))).toBe(true);
    const turns = episodes.flatMap((e) => e.turns);
    expect(turns.length).toBeGreaterThan(0);
    expect(turns.every((t) => t.actor === 'model' && t.model_calls === 1)).toBe(true);
    expect(metrics.totals).toMatchObject({ oracle_steps: 0, model_steps: turns.length, model_calls: turns.length });
    expect(metrics.totals.errors['parse_error'] ?? 0).toBe(turns.filter((t) => t.parse_error).length);
    // The server's usage is real token counts: at most the served context per call.
    expect(turns.every((t) => t.tokens_in > 0 && t.tokens_in + t.tokens_out <= 2048)).toBe(true);

    const oracle = join(dir, 'oracle');
    expect(
      (await agent(['run', '--env', env.url, '--task', 'click-test', '--seeds', '0-1', '--out', oracle])).code,
    ).toBe(0);
    const compare = await agent(['compare', oracle, out]);
    expect(compare.code).toBe(0);
    expect(compare.out.join('\n')).toMatch(/^click-test +100% +\d+% +[-±]\d+%/m);
    const json = await agent(['compare', '--json', oracle, out]);
    expect(json.code).toBe(0);
    const figures = JSON.parse(json.out.join('\n')) as {
      tasks: Record<string, Record<string, { a: number; b: number; delta: number }>>;
      all: Record<string, unknown>;
    };
    expect(figures.tasks['click-test']!['success_rate']).toEqual({
      a: 1,
      b: metrics.totals.success_rate,
      delta: metrics.totals.success_rate - 1,
    });
    expect(figures.all['mean_steps']).toMatchObject({ a: 1, b: metrics.totals.mean_steps });
  });

  it('--constrained: every reply is one action naming an element id the page showed, sent as structured_outputs', async () => {
    const out = join(dir, 'constrained');
    const args = ['run', '--env', env.url, '--mode', 'local', '--model-dir', MODEL, '--constrained'];
    const result = await agent([...args, ...FAST, '--seeds', '0-1', '--out', out, '--screenshots']);
    expect(result.errors).toEqual([]);
    expect(result.code).toBe(0);
    const { metrics, episodes } = readRun(out);
    expect(metrics.run).toMatchObject({ constrained: true });
    const turns = episodes.flatMap((e) => e.turns);
    expect(turns.length).toBeGreaterThan(0);
    // An untrained model writes whatever the grammar leaves it: always one action, bids from the page.
    const whole = new RegExp(`^(?:${actionRegex()})$`);
    for (const turn of turns) {
      expect(turn.parse_error, turn.text).toBe(false);
      expect(turn.text).toMatch(whole);
      const bid = /^[a-z_]+\(['"]([^'"]+)['"]/.exec(turn.text)?.[1];
      const page = readFileSync(join(out, turn.axtree!), 'utf8');
      if (bid !== undefined) expect(page, turn.text).toContain(`[${bid}]`);
    }
    const oracle = await agent([
      'run',
      '--env',
      env.url,
      '--constrained',
      '--task',
      'click-test',
      '--out',
      join(dir, 'x'),
    ]);
    expect(oracle.code).toBe(2);
    expect(oracle.err.join('\n')).toMatch(/--constrained .*not with --mode oracle/);
  });

  it('--base-url uses a running vLLM-compatible server: the served adapter by --model, repetition_penalty 1.15 sent', async () => {
    const served = await openLocalModel({ modelDir: MODEL, adapter: ADAPTER, baseUrl: '', progress: () => {} });
    const proxy = await startRecordingProxy(served.baseUrl.replace(/\/v1$/, ''));
    try {
      const out = join(dir, 'base-url');
      const args = ['run', '--env', env.url, '--mode', 'local', '--base-url', proxy.baseUrl, '--model', 'adapter'];
      const result = await agent([...args, ...FAST, '--max-steps', '1', '--out', out]);
      expect(result.errors).toEqual([]);
      expect(result.code).toBe(0);
      expect(proxy.chatBodies).toHaveLength(1);
      expect(proxy.chatBodies[0]).toMatchObject({ model: 'adapter', repetition_penalty: 1.15, max_tokens: 48 });
      const penalty = await agent([...args, ...FAST, '--max-steps', '1', '--repetition-penalty', '1.3', '--out', out]);
      expect(penalty.code).toBe(0);
      expect(proxy.chatBodies[1]).toMatchObject({ repetition_penalty: 1.3 });
      // --text-choices: the regex sent lets fill type only what the goal quotes.
      const typed = [...args, '--task', 'enter-text', '--max-steps', '1', '--constrained', '--text-choices'];
      const choices = await agent([...typed, '--out', join(dir, 'typed')]);
      expect(choices.code, choices.err.join('\n')).toBe(0);
      expect(readRun(join(dir, 'typed')).metrics.run).toMatchObject({ constrained: true, text_choices: true });
      const body = proxy.chatBodies[2] as { messages: { content: string }[]; structured_outputs: { regex: string } };
      const prompt = body.messages.map((m) => m.content).join('\n');
      const word = /Enter "([^"]+)" into the text field/.exec(prompt)?.[1];
      const field = /\[([\w.-]+)\] textbox/.exec(prompt)?.[1];
      expect([word, field], prompt).not.toContain(undefined);
      const reply = new RegExp(`^(?:${body.structured_outputs.regex})$`);
      expect([`fill('${field}', '${word}')`, `fill('${field}', '${word}x')`].map((r) => reply.test(r))).toEqual([
        true,
        false,
      ]);
      const unconstrained = await agent([
        ...args,
        '--task',
        'enter-text',
        '--text-choices',
        '--out',
        join(dir, 'typed'),
      ]);
      expect(unconstrained.code).toBe(2);
      expect(unconstrained.err.join('\n')).toMatch(/--text-choices .*give --constrained too/);
    } finally {
      await proxy.close();
      await served.stop();
    }
  });

  it('bad folders, an adapter that does not fit, a bin that does not start: one line naming the flag', async () => {
    const base = ['run', '--env', env.url, '--mode', 'local', ...FAST];
    const cases: [string[], number, RegExp][] = [
      [[], 2, /^gauntlet-agent run: --model-dir is needed with --mode local/],
      [['--model-dir', join(dir, 'nope')], 2, /--model-dir .*nope: no such folder/],
      [['--model-dir', MODEL, '--adapter', join(dir, 'nope')], 2, /--adapter .*nope: no such folder/],
      [
        ['--model-dir', MODEL, '--adapter', MODEL],
        2,
        /--adapter .*: not a PEFT adapter folder \(no adapter_config.json\)/,
      ],
      [
        ['--model-dir', MODEL, '--adapter', FOREIGN_ADAPTER],
        1,
        /--adapter .*foreign-adapter: the model server refused it \(400\)/,
      ],
      [
        ['--model-dir', MODEL, '--trainer-bin', join(dir, 'no-such-bin')],
        1,
        /--trainer-bin .*no-such-bin: the model server could not be started/,
      ],
      [['--model-dir', MODEL, '--max-tokens', '4096'], 2, /--max-tokens 4096 leaves no room for a prompt/],
      [['--base-url', `${env.url}/v1`], 1, /--base-url .*: not a vLLM-compatible server \(\/v1\/models answered 404\)/],
    ];
    for (const [flags, code, message] of cases) {
      const result = await agent([...base, ...flags, '--out', join(dir, 'bad')]);
      expect(result.code, flags.join(' ')).toBe(code);
      expect(result.errors, flags.join(' ')).toHaveLength(1);
      expect(result.errors[0], flags.join(' ')).toMatch(message);
      const pid = serverPid(result.err);
      if (pid) expect(alive(pid), flags.join(' ')).toBe(false);
    }
    // A bin that runs but exits at once: the model folder is what it could not serve.
    const broken = join(dir, 'broken-model');
    await run(TRAINER, ['init-tiny', broken, '--hidden-size', '32', '--layers', '1', '--heads', '2']);
    writeFileSync(join(broken, 'config.json'), '{}');
    const result = await agent([...base, '--model-dir', broken, '--out', join(dir, 'bad')]);
    expect(result.code).toBe(1);
    expect(result.errors).toEqual([
      expect.stringMatching(/--model-dir .*broken-model: the model server exited \(1\) before listening/),
    ]);
  }, 120_000);

  it('Ctrl-C mid-run: exit 130, and the model server it started is gone', async () => {
    const out = join(dir, 'interrupted');
    const args = ['run', '--env', env.url, '--mode', 'local', '--model-dir', MODEL, '--adapter', ADAPTER, ...FAST];
    const child = spawn(process.execPath, [AGENT_BIN, ...args, '--max-steps', '50', '--seeds', '0-9', '--out', out], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let err = '';
    const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    await new Promise<void>((resolve) =>
      child.stderr.on('data', (chunk: Buffer) => {
        err += chunk.toString();
        if (/local on click-test/.test(err)) resolve();
      }),
    );
    const pid = serverPid([err]);
    expect(alive(pid)).toBe(true);
    child.kill('SIGINT');
    expect(await exit).toBe(130);
    expect(alive(pid)).toBe(false);
  });
});
