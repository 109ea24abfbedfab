import { DEFAULT_DEMONSTRATION_TEMPLATE, scriptedPolicy } from '@gauntlet/proto/agent';
import { EpisodeSettings } from '@gauntlet/proto/rollout';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EnvPool } from '../../src/env/env-pool.js';
import { playEpisode, type PolicySource } from '../../src/episode/play.js';
import { startEnvServer, type EnvServerProcess } from '../support/env-server.js';

// A job's observation_format decides what the policy reads (and what the trajectory records).
let env: EnvServerProcess;
let envs: EnvPool;
beforeAll(async () => {
  env = await startEnvServer();
  envs = new EnvPool([env.grpc]);
  await envs.start();
}, 150_000);
afterAll(async () => {
  await envs?.close();
  await env?.stop();
});

const seen: string[] = [];
const policies: PolicySource = {
  forEpisode: () => ({
    server: 'test',
    policy: scriptedPolicy('noop', () => (turn) => {
      seen.push(turn.observation);
      return 'noop()';
    }),
  }),
};

async function play(format: 'axtree' | 'pruned', demonstration?: { text: string; template: string }) {
  seen.length = 0;
  const settings = EpisodeSettings.parse({ max_turns: 1, observation_format: format });
  const trajectory = await playEpisode(
    {
      task: 'click-button',
      seed: 3,
      episode_id: `format-${format}`,
      group_id: null,
      policy: { model: 'noop', adapter: null, version: null },
      settings,
      demonstration,
    },
    { envs, policies },
  );
  return { trajectory, observation: seen[0]! };
}

describe('observation_format in episode settings', () => {
  it('pruned: the policy reads (and the trajectory records) the pruned tree; axtree: the tree as sent', async () => {
    const full = await play('axtree');
    const pruned = await play('pruned');
    expect(full.observation).toContain('RootWebArea');
    expect(pruned.observation).not.toContain('RootWebArea');
    expect(pruned.trajectory.turns[0]!.observation).toBe(pruned.observation);
    // The same buttons, with the same bids, in both.
    const buttons = (text: string) => text.match(/\[\d+\] button '[^']*'/g);
    expect(buttons(pruned.observation)).toEqual(buttons(full.observation));
    expect(buttons(pruned.observation)!.length).toBeGreaterThan(1);
  }, 60_000);

  it('a demonstration (eval --demo) is written before the goal of what the policy reads', async () => {
    const plain = await play('pruned');
    const shown = await play('pruned', { text: "1. click('7')", template: DEFAULT_DEMONSTRATION_TEMPLATE });
    expect(shown.observation).toBe(
      `# Demonstration\nThis task was solved before. These actions solved it, in order:\n1. click('7')\n\n${plain.observation}`,
    );
  }, 60_000);
});
