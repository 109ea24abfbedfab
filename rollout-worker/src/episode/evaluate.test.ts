import type { Trajectory } from '@gauntlet/proto/rollout';
import { describe, expect, it } from 'vitest';
import { score, type EvalReport } from './evaluate.js';

const episode = (outcome: Trajectory['outcome'], reward: number, turns: number): EvalReport['episodes'][number] => ({
  task: 'web',
  seed: 0,
  episode_id: 'e',
  outcome,
  reward,
  turns,
  wall_ms: 1,
  attempts: 1,
});

describe('score', () => {
  it('counts unjudged episodes apart: out of the success rate and mean reward, in the mean turns', () => {
    const scored = score('web', [
      episode('success', 1, 2),
      episode('fail', 0, 4),
      episode('unjudged', 0, 6),
      episode('unjudged', 0, 8),
      episode('infra_error', 0, 100),
    ]);
    expect(scored).toEqual({
      task: 'web',
      episodes: 5,
      success: 1,
      fail: 1,
      timeout: 0,
      infra_error: 1,
      unjudged: 2,
      success_rate: 0.5,
      mean_reward: 0.5,
      mean_turns: 5,
    });
  });

  it('only unjudged episodes: no success rate to speak of (0), never a success', () => {
    expect(score('web', [episode('unjudged', 0, 3)])).toMatchObject({ unjudged: 1, success: 0, success_rate: 0 });
  });
});
