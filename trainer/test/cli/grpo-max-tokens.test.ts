import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { runBin } from './run-cli.js';

// A reply as long as the model's whole context leaves no room for a prompt: every turn of every
// group would be refused by the policy servers, so grpo refuses it against its model before any
// group is submitted (the shared test Redis, a prefix of its own that nothing is written under).
let dir = '';
afterEach(() => rmSync(dir, { recursive: true, force: true }));

it("grpo refuses --max-tokens at or over the model's context at start (exit 2, naming the flag)", () => {
  dir = mkdtempSync(join(tmpdir(), 'gauntlet-grpo-max-tokens-'));
  const args = ['grpo', '--task', 'click-test', '--output-dir', join(dir, 'run'), '--prefix', `test-${randomUUID()}`];
  // The built-in tiny model has a context of 4096 tokens.
  const result = runBin([...args, '--max-tokens', '4096'], { timeoutMs: 60_000 });
  expect(result.code, result.stderr).toBe(2);
  expect(result.stderr.split('\n')[0]).toBe(
    "gauntlet-trainer grpo: --max-tokens (4096) must be below the model's context of 4096 tokens: the prompt needs room too (see --help)",
  );
  expect(result.stdout).toBe('');
}, 90_000);
