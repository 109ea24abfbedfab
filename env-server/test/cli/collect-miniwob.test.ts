import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BROWSER_SYSTEM_PROMPT, parseAction, runEpisode, scriptedPolicy } from '@gauntlet/proto/agent';
import { parseSftRecord } from '@gauntlet/proto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseMiniwobTasks } from '../../src/cli/collect-miniwob.js';
import { openInProcessEnvs } from '../../src/cli/in-process-envs.js';
import { main } from '../../src/cli/main.js';
import { miniwobTasks } from '../../src/tasks/miniwob/index.js';

const silent = { out: () => {}, err: () => {} };
/** `gauntlet-env <argv>` as the bin runs it, in this process; lines go to `io` (default: nowhere). */
const cli = (argv: string[], io: { out(line: string): void; err(line: string): void } = silent) =>
  main(argv, { io, signal: new AbortController().signal });

interface Message {
  role: string;
  content: string;
  reward?: number;
}

let out: string;
beforeAll(async () => {
  out = await mkdtemp(join(tmpdir(), 'gauntlet-collect-miniwob-'));
});
afterAll(() => rm(out, { recursive: true, force: true }));

const records = async () =>
  (await readFile(join(out, 'sft.jsonl'), 'utf8'))
    .trim()
    .split('\n')
    .map((l) => {
      const record = JSON.parse(l) as unknown;
      // proto's record schema, exactly: what the trainer reads.
      expect(parseSftRecord(record)).toEqual(record);
      return record as { task: string; seed: number; episode: string; messages: Message[] };
    });

describe('gauntlet-env collect --task miniwob…', () => {
  it('names every built-in task with miniwob or miniwob.*, and refuses unknown or mixed names', () => {
    const all = miniwobTasks.map((t) => `miniwob.${t.name}`);
    expect(all.length).toBeGreaterThanOrEqual(5);
    expect(parseMiniwobTasks('miniwob')).toEqual(all);
    expect(parseMiniwobTasks('miniwob.*')).toEqual(all);
    expect(parseMiniwobTasks('miniwob.click-test, miniwob.click-test')).toEqual(['miniwob.click-test']);
    expect(() => parseMiniwobTasks('miniwob.no-such-task')).toThrow(/not a built-in MiniWoB task/);
    expect(() => parseMiniwobTasks('miniwob.click-test,gauntlet')).toThrow(/separate runs/);
  });

  it('records oracle episodes that a rollout replays turn for turn (same prompt, same observations)', async () => {
    const tasks = 'miniwob.click-test,miniwob.enter-text';
    expect(await cli(['collect', '--out', out, '--task', tasks, '--seeds', '3-4'])).toBe(0);
    const sft = await records();
    expect(sft.map((r) => `${r.task}#${r.seed}`).sort()).toEqual([
      'miniwob.click-test#3',
      'miniwob.click-test#4',
      'miniwob.enter-text#3',
      'miniwob.enter-text#4',
    ]);
    for (const record of sft) {
      const [system, ...turns] = record.messages;
      expect(system).toEqual({ role: 'system', content: BROWSER_SYSTEM_PROMPT });
      expect(turns.map((m) => m.role)).toEqual(turns.map((_, i) => (i % 2 ? 'assistant' : 'user')));
      expect(turns[0]!.content).toMatch(/^# Goal\n.+\n\n# Current page\nhttp.*\n\n# Last action\n\(none\)/s);
      // What the model is taught to write parses back to the very action the oracle took.
      for (const reply of turns.filter((m) => m.role === 'assistant'))
        expect(parseAction(reply.content).action).toBe(reply.content);
      expect(turns.at(-1)!.reward).toBeGreaterThan(0);
    }

    // A rollout of the same task and seed, replaying the recorded replies, renders the same user turns.
    const pool = await openInProcessEnvs(1, undefined);
    try {
      for (const record of sft) {
        const replies = record.messages.filter((m) => m.role === 'assistant').map((m) => m.content);
        const replay = await runEpisode(
          pool.ports[0]!,
          scriptedPolicy('replay', () => (turn) => replies[turn.index]!),
          { task: record.task, seed: record.seed },
        );
        expect(replay.outcome).toBe('success');
        expect(replay.turns.map((t) => t.observation)).toEqual(
          record.messages.filter((m) => m.role === 'user').map((m) => m.content),
        );
      }
    } finally {
      await pool.close();
    }

    // Appending: seeds already recorded are skipped; metrics are written per run.
    expect(await cli(['collect', '--out', out, '--task', tasks, '--seeds', '4-5'])).toBe(0);
    const again = await records();
    expect(again).toHaveLength(6);
    expect(new Set(again.map((r) => r.episode)).size).toBe(6);
    const runs = await readdir(join(out, 'runs'));
    expect(runs).toHaveLength(2);
    const metrics = JSON.parse(await readFile(join(out, 'runs', runs.sort()[1]!, 'metrics.json'), 'utf8'));
    expect(metrics.per_task['miniwob.enter-text']).toMatchObject({ attempts: 1, solved: 1, success_rate: 1 });
  }, 180_000);

  it('--observation-format pruned records the pruned tree, the same text a rollout in that format renders', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'gauntlet-collect-pruned-'));
    const task = 'miniwob.click-checkboxes';
    try {
      const args = ['--task', task, '--seeds', '5'];
      expect(await cli(['collect', '--out', dir, ...args, '--observation-format', 'pruned'])).toBe(0);
      expect(await cli(['collect', '--out', join(dir, 'full'), ...args])).toBe(0);
      const read = async (file: string) => JSON.parse((await readFile(file, 'utf8')).trim()) as { messages: Message[] };
      const pruned = (await read(join(dir, 'sft.jsonl'))).messages.filter((m) => m.role === 'user');
      const full = (await read(join(dir, 'full', 'sft.jsonl'))).messages.filter((m) => m.role === 'user');
      expect(pruned).toHaveLength(full.length);
      expect(full[0]!.content).toContain('RootWebArea');
      expect(pruned[0]!.content).not.toContain('RootWebArea');
      expect(pruned[0]!.content).toMatch(/\[\d+\] checkbox '\w+', checked='false'/);
      expect(pruned[0]!.content.length).toBeLessThan(full[0]!.content.length);

      const pool = await openInProcessEnvs(1, undefined);
      try {
        const replies = (await read(join(dir, 'sft.jsonl'))).messages.filter((m) => m.role === 'assistant');
        const replay = await runEpisode(
          pool.ports[0]!,
          scriptedPolicy('replay', () => (turn) => replies[turn.index]!.content),
          { task, seed: 5, render: { format: 'pruned' } },
        );
        expect(replay.turns.map((t) => t.observation)).toEqual(pruned.map((m) => m.content));
      } finally {
        await pool.close();
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 120_000);

  it('answers flag mistakes with a usage error (exit 2)', async () => {
    expect(await cli(['collect', '--out', out, '--task', 'miniwob', '--observation-format', 'html'])).toBe(2);
    expect(await cli(['collect', '--out', out, '--task', 'miniwob.nope'])).toBe(2);
    expect(await cli(['collect', '--out', out, '--task', 'miniwob', '--start-step', '3'])).toBe(2);
  });
});
