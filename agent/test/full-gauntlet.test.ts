import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { readRun } from './support/agent.js';

const BIN = fileURLToPath(new URL('../bin/cli.js', import.meta.url));

/** Runs the real bin as a user would; resolves with its exit code and output. */
function runBin(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
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
