import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseDpoRecord, parseSftRecord } from '@gauntlet/proto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';

const silent = { out: () => {}, err: () => {} };
/** `gauntlet-env <argv>` as the bin runs it, in this process; lines go to `io` (default: nowhere). */
const cli = (argv: string[], io: { out(line: string): void; err(line: string): void } = silent) =>
  main(argv, { io, signal: new AbortController().signal });

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
      await cli(['collect', '--out', out, '--task', 'gauntlet:click_sequence,gauntlet:encrypted', '--seeds', '1-2']),
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
      await cli([
        'collect',
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
      await cli(['collect', '--out', out, '--task', 'gauntlet:click_sequence', '--seeds', '2-3', '--no-dpo']),
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
    const out: string[] = [];
    const err: string[] = [];
    expect(
      await cli(['solve', '--task', 'gauntlet:slider', '--seeds', '4,9', '--json'], {
        out: (line) => out.push(line),
        err: (line) => err.push(line),
      }),
    ).toBe(0);
    // Progress on stderr, one line per episode; stdout holds only the JSON.
    expect(err).toEqual([
      expect.stringMatching(/^\[solve\] 1\/2 ok +gauntlet:slider seed \d: 1\/1 steps/),
      expect.stringMatching(/^\[solve\] 2\/2 ok +gauntlet:slider seed \d: 1\/1 steps/),
    ]);
    expect(JSON.parse(out.join('\n'))).toMatchObject({
      episodes: 2,
      success_rate: 1,
      per_type: { slider: { attempts: 2, solved: 2, success_rate: 1 } },
    });
  });

  it('turns flag mistakes into exit code 2: one line naming the flag, pointing at --help', async () => {
    const err: string[] = [];
    const said = { out: () => {}, err: (line: string) => err.push(line) };
    expect(await cli(['collect', '--task', 'gauntlet'], said)).toBe(2);
    expect(await cli(['solve', '--task', 'gauntlet:nope'], said)).toBe(2);
    expect(await cli(['solve', '--seeds', '9-1'], said)).toBe(2);
    expect(await cli(['solve', '--start-step', '31'], said)).toBe(2);
    expect(await cli(['solve', '--concurrency', '0'], said)).toBe(2);
    expect(await cli(['collect', '--out', out, '--start-step', '0'], said)).toBe(2);
    expect(await cli(['collect', '--out', out, '--dpo-per-step', 'x'], said)).toBe(2);
    // No stack trace: the reason, on one line each.
    expect(err).toEqual([
      'gauntlet-env collect: --out DIR is required (see --help)',
      expect.stringMatching(/^gauntlet-env solve: --task: "gauntlet:nope" is not a Gauntlet task .* \(see --help\)$/),
      'gauntlet-env solve: --seeds: range 9-1 runs backwards (see --help)',
      'gauntlet-env solve: --start-step must be an integer ≥ 1 and ≤ 30 (got "31") (see --help)',
      'gauntlet-env solve: --concurrency must be an integer ≥ 1 (got "0") (see --help)',
      'gauntlet-env collect: --start-step must be an integer ≥ 1 and ≤ 30 (got "0") (see --help)',
      'gauntlet-env collect: --dpo-per-step must be an integer ≥ 1 (got "x") (see --help)',
    ]);
  });

  it('writes --help for solve and collect from their flag tables, the shared flags alike', async () => {
    const help = async (command: string) => {
      const out: string[] = [];
      expect(await cli([command, '--help'], { out: (line) => out.push(line), err: () => {} })).toBe(0);
      return out.join('\n');
    };
    for (const text of [await help('solve'), await help('collect')]) {
      expect(text).toMatch(/--seeds SPEC +Seeds: 7, 0-99, or 0-9,20-29 \(default: 0-9\)/);
      expect(text).toMatch(/--concurrency N +Sessions played at once \(default: 2\)/);
      expect(text).toMatch(/--start-step N +Start full runs at step N/);
    }
    expect(await help('solve')).toMatch(/--json +Print the metrics JSON on stdout/);
    const collect = await help('collect');
    expect(collect).toMatch(/--observation-format FORMAT .*\(one of axtree, pruned; default: axtree\)/);
    expect(collect).toMatch(/--task LIST .*miniwob\.<name>/);
    expect(collect).toContain('<dir>/dpo.jsonl');
  });
});
