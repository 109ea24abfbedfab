import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createEnvClient } from '@gauntlet/proto/client';
import { startLocalEnv, type LocalEnv } from '../src/env/local-env.js';
import { agent } from './support/agent.js';

// What `record` and `--headed` say when they cannot work: a usage mistake is exit 2 naming the
// flag; no display, or a server that may not or cannot open a window, is one line and exit 1.
// (Recording itself is tested under Xvfb in test/record.)
const dir = mkdtempSync(join(tmpdir(), 'agent-record-cli-'));
const display = process.env.DISPLAY;
const noDisplay = (): NodeJS.ProcessEnv => {
  const env = { ...process.env };
  delete env.DISPLAY;
  delete env.WAYLAND_DISPLAY;
  return env;
};
afterEach(() => {
  if (display === undefined) delete process.env.DISPLAY;
  else process.env.DISPLAY = display;
});

describe('record: usage errors (exit 2)', () => {
  it('needs --task or --replay', async () => {
    const r = await agent(['record']);
    expect(r.code).toBe(2);
    expect(r.errors.join('\n')).toMatch(/--task/);
  });

  it('--url needs --goal, is not --task too, and is an http(s) URL', async () => {
    for (const [args, flag] of [
      [['--url', 'http://127.0.0.1:9/'], '--goal'],
      [['--url', 'http://127.0.0.1:9/', '--goal', 'g', '--task', 'click-button'], '--url'],
      [['--url', 'file:///etc/passwd', '--goal', 'g'], '--url'],
      [['--goal', 'g'], '--goal'],
    ] as const) {
      const r = await agent(['record', ...args]);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.errors, args.join(' ')).toEqual([expect.stringContaining(flag)]);
    }
  });

  it('--replay of a missing or foreign file', async () => {
    const missing = await agent(['record', '--replay', join(dir, 'nope.json')]);
    expect(missing.code).toBe(2);
    expect(missing.errors.join('\n')).toMatch(/--replay .*nope\.json: cannot read it/);
    const foreign = join(dir, 'foreign.json');
    writeFileSync(foreign, JSON.stringify({ hello: 1 }));
    const wrong = await agent(['record', '--replay', foreign]);
    expect(wrong.code).toBe(2);
    expect(wrong.errors.join('\n')).toMatch(/not a demo\.json/);
  });
});

describe('no display here (exit 1)', () => {
  it('record and run --headed say to use xvfb-run, before starting anything', async () => {
    delete process.env.DISPLAY;
    delete process.env.WAYLAND_DISPLAY;
    for (const args of [
      ['record', '--task', 'click-button'],
      ['run', '--task', 'click-button', '--headed'],
    ]) {
      const r = await agent(args);
      expect(r.code).toBe(1);
      expect(r.errors).toHaveLength(1);
      expect(r.errors[0]).toMatch(/needs a display .*xvfb-run/);
    }
  });
});

describe('the env server decides', () => {
  let refusing: LocalEnv;
  let blind: LocalEnv;
  beforeAll(async () => {
    [refusing, blind] = await Promise.all([
      startLocalEnv(),
      startLocalEnv({ extraArgs: ['--allow-headed'], env: noDisplay() }),
    ]);
  }, 120_000);
  afterAll(async () => {
    await Promise.all([refusing?.stop(), blind?.stop()]);
  });

  it('a server started without --allow-headed opens no window', async () => {
    const r = await agent([
      'run',
      '--task',
      'click-button',
      '--headed',
      '--env',
      refusing.url,
      '--out',
      join(dir, 'a'),
    ]);
    expect(r.code).toBe(1);
    expect(r.errors.join('\n')).toMatch(/does not allow headed sessions .*--allow-headed/);
    const rec = await agent(['record', '--task', 'click-button', '--env', refusing.url, '--out', join(dir, 'b')]);
    expect(rec.code).toBe(1);
    expect(rec.errors.join('\n')).toMatch(/--allow-headed/);
  });

  it('record on a session that is not recording is refused; gRPC has no record call', async () => {
    for (const url of [refusing.url, refusing.url.replace(/^http/, 'ws')]) {
      const client = createEnvClient(url);
      try {
        await client.reset({ task_name: 'click-button', seed: 1 });
        await expect(client.record({ wait_s: 1 })).rejects.toMatchObject({
          name: 'EpisodeStateError',
          message: expect.stringMatching(/not recording: reset with browser.record/),
        });
      } finally {
        await client.close();
      }
    }
    const grpc = createEnvClient(refusing.grpcUrl);
    try {
      await expect(grpc.record()).rejects.toMatchObject({
        name: 'ValidationError',
        message: expect.stringMatching(/not gRPC/),
      });
    } finally {
      await grpc.close();
    }
  });

  it('a server allowed to but without a display says so', async () => {
    const r = await agent(['record', '--task', 'click-button', '--env', blind.url, '--out', join(dir, 'c')]);
    expect(r.code).toBe(1);
    expect(r.errors.join('\n')).toMatch(/has none \(DISPLAY is not set\).*xvfb-run/);
  });
});
