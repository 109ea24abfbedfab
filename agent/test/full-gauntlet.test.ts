import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { readRun } from './support/agent.js';

const BIN = fileURLToPath(new URL('../bin/cli.js', import.meta.url));

/** Runs the real bin as a user would; resolves with its exit code and output. */
function runBin(
  args: string[],
  onStderr: (text: string, child: ChildProcess) => void = () => undefined,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => onStderr((stderr += chunk.toString()), child));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

// The acceptance run: nothing running beforehand, the agent starts and stops its own env server.
// The Gauntlet's timing puzzles wait by design: about 30 s on an idle machine, so the bound is generous.
it('gauntlet-agent run --task gauntlet --mode oracle --seeds 0 solves 30/30 with a local env it starts itself', async () => {
  const out = join(mkdtempSync(join(tmpdir(), 'agent-full-')), 'run');
  const run = await runBin(['run', '--task', 'gauntlet', '--mode', 'oracle', '--seeds', '0', '--out', out]);
  expect(run.code, run.stderr).toBe(0);
  expect(run.stderr).toMatch(/starting a local env server/);
  expect(run.stderr).toMatch(/gauntlet seed 0: success in \d+ steps \(oracle \d+, model 0, 30\/30 steps solved/);
  const { metrics, episodes } = readRun(out);
  const episode = metrics.episodes[0]!;
  expect(episode).toMatchObject({ outcome: 'success', gauntlet: { solved: 30, total: 30 } });
  expect(episode.gauntlet!.steps).toHaveLength(30);
  expect(episode.gauntlet!.steps.every((s) => s.solved && s.acted === 'oracle')).toBe(true);
  expect(Object.keys(metrics.gauntlet_types)).toHaveLength(21);
  expect(episodes[0]!.turns.length).toBe(episode.steps);
}, 600_000);

it('Ctrl-C mid-run: exit 130, the local env server is stopped, and the finished episodes are on disk', async () => {
  const out = join(mkdtempSync(join(tmpdir(), 'agent-int-')), 'run');
  let interrupted = false;
  const run = await runBin(['run', '--task', 'click-button,gauntlet', '--seeds', '0', '--out', out], (text, child) => {
    // The first episode is written; the second (the full Gauntlet) is under way.
    if (!interrupted && /click-button seed 0: success/.test(text)) {
      interrupted = true;
      child.kill('SIGINT');
    }
  });
  expect(run.code, run.stderr).toBe(130);
  expect(run.stderr).toMatch(/gauntlet-agent run: interrupted/);
  const envUrl = /local env server at (http:\/\/\S+)/.exec(run.stderr)![1]!;
  await expect(fetch(`${envUrl}/health`)).rejects.toThrow();
  expect(readRun(out).metrics.totals).toMatchObject({ episodes: 1, successes: 1 });
}, 120_000);
