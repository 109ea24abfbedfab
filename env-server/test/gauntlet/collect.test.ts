import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseDpoRecord, parseSftRecord } from '@gauntlet/proto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectCommand } from '../../src/cli/collect.js';
import { runGauntletCommand } from '../../src/cli/gauntlet-commands.js';
import { solveCommand } from '../../src/cli/solve.js';

let out: string;
beforeAll(async () => {
  out = await mkdtemp(join(tmpdir(), 'gauntlet-collect-'));
});
afterAll(() => rm(out, { recursive: true, force: true }));

const lines = async (file: string) =>
  (await readFile(join(out, file), 'utf8'))
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));

describe('gauntlet-env collect', () => {
  it('writes SFT conversations, verified DPO pairs and metrics, and appends without repeating episodes', async () => {
    expect(
      await collectCommand(['--out', out, '--task', 'gauntlet:click_sequence,gauntlet:encrypted', '--seeds', '1-2']),
    ).toBe(0);
    const sft = await lines('sft.jsonl');
    expect(sft).toHaveLength(4);
    for (const record of sft) {
      // proto's record schema, exactly: what the trainer reads.
      expect(parseSftRecord(record)).toEqual(record);
      expect(record).toMatchObject({
        task: expect.stringMatching(/^gauntlet:/),
        seed: expect.any(Number),
        step: 1,
        type: expect.any(String),
        reward: 1,
      });
      expect(record.messages[0].role).toBe('system');
      expect(record.messages.slice(1).map((m: { role: string }) => m.role)).toEqual(
        record.messages.slice(1).map((_: unknown, i: number) => (i % 2 ? 'assistant' : 'user')),
      );
      expect(record.messages[1].content).toMatch(
        /^# Goal\n.*\n\n# Current page\nhttp:\/\/tasks\.gauntlet\.test\/gauntlet\/step\/1/s,
      );
      expect(record.messages.at(-1)).toMatchObject({
        role: 'assistant',
        reward: 1,
        content: expect.stringMatching(/^fill\('\d+', '[A-Z0-9]{6}'\)\nclick\('\d+'\)$/),
      });
    }
    const dpo = await lines('dpo.jsonl');
    expect(dpo.length).toBeGreaterThanOrEqual(4);
    for (const pair of dpo) {
      expect(parseDpoRecord(pair)).toEqual(pair);
      // The step's earlier exchanges, then the observation the two actions answer.
      const roles = pair.prompt.map((m: { role: string }) => m.role);
      expect(roles).toEqual([
        'system',
        ...roles.slice(1).map((_: string, i: number) => (i % 2 ? 'assistant' : 'user')),
      ]);
      expect(roles.at(-1)).toBe('user');
      expect(pair.rejected[0].content).not.toBe(pair.chosen[0].content);
      expect(pair.rejected_outcome).toMatch(/^(wrong_code|puzzle_mistake|action_error)/);
      expect(pair.chosen[0].content).not.toMatch(/^noop\(/);
    }
    // A wrong code near the real one is rejected in every episode: the pair the probe always tries.
    expect(dpo.filter((p) => p.rejected_outcome === 'wrong_code').length).toBeGreaterThanOrEqual(4);

    expect(
      await collectCommand([
        '--out',
        out,
        '--task',
        'gauntlet:click_sequence,gauntlet:encrypted',
        '--seeds',
        '2-3',
        '--no-dpo',
      ]),
    ).toBe(0);
    const again = await lines('sft.jsonl');
    expect(again).toHaveLength(6);
    expect(new Set(again.map((r) => r.id)).size).toBe(6);
    expect(again.filter((r) => r.seed === 2)).toHaveLength(2);
    const runs = await readdir(join(out, 'runs'));
    expect(runs).toHaveLength(2);
    // Nothing left to do: no episode is replayed and no empty run folder is written.
    expect(
      await collectCommand(['--out', out, '--task', 'gauntlet:click_sequence', '--seeds', '2-3', '--no-dpo']),
    ).toBe(0);
    expect(await readdir(join(out, 'runs'))).toHaveLength(2);
    const metrics = JSON.parse(await readFile(join(out, 'runs', runs.sort()[1]!, 'metrics.json'), 'utf8'));
    expect(metrics).toMatchObject({
      episodes: 2,
      success_rate: 1,
      sft_records_added: 2,
      per_type: { click_sequence: { attempts: 1, solved: 1 } },
    });
  });

  it('solve reports per-type success as JSON', async () => {
    const chunks: string[] = [];
    const write = process.stdout.write.bind(process.stdout);
    process.stdout.write = ((chunk: string) => chunks.push(chunk) > 0) as typeof process.stdout.write;
    try {
      expect(await solveCommand(['--task', 'gauntlet:slider', '--seeds', '4,9', '--json'])).toBe(0);
    } finally {
      process.stdout.write = write;
    }
    expect(JSON.parse(chunks.join(''))).toMatchObject({
      episodes: 2,
      success_rate: 1,
      per_type: { slider: { attempts: 2, solved: 2, success_rate: 1 } },
    });
  });

  it('turns flag mistakes into exit code 2 with a pointer to --help', async () => {
    expect(await runGauntletCommand('collect', ['--task', 'gauntlet'])).toBe(2);
    expect(await runGauntletCommand('solve', ['--task', 'gauntlet:nope'])).toBe(2);
    expect(await runGauntletCommand('solve', ['--seeds', '9-1'])).toBe(2);
    expect(await runGauntletCommand('solve', ['--start-step', '31'])).toBe(2);
    // The reason on one line, then the pointer to --help: no stack trace.
    const said: string[] = [];
    const write = process.stderr.write.bind(process.stderr);
    process.stderr.write = ((chunk: string) => said.push(chunk) > 0) as typeof process.stderr.write;
    try {
      expect(await runGauntletCommand('solve', ['--start-step', '31'])).toBe(2);
    } finally {
      process.stderr.write = write;
    }
    const text = said.join('').trimEnd().split('\n');
    expect(text).toHaveLength(2);
    expect(text[0]).toMatch(/start.step/i);
    expect(text[1]).toMatch(/--help/);
    expect(await runGauntletCommand('collect', ['--out', out, '--start-step', '0'])).toBe(2);
  });
});
