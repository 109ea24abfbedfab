import { describe, expect, it } from 'vitest';
import { TokenHistory } from './token-history.js';
import { rolloutSequence, turnPromptIds } from './tokens.js';
import { ConsumedGroup } from './consumed-group.js';
import { Trajectory, TrajectoryGroup, type TrajectoryTurn } from './trajectory.js';

const policy = { model: 'tiny', adapter: 'grpo', version: 3 };

function turn(index: number, completion: number[], env: number[], trimmed = 0): TrajectoryTurn {
  return {
    index,
    observation: `obs ${index}`,
    trimmed_exchanges: trimmed,
    completion_ids: completion,
    logprobs: completion.map((id) => -id / 100),
    env_ids: env,
    action_text: "click('5')",
    action: "click('5')",
    action_fallback: false,
    reward: 0,
    done: false,
    error: '',
    policy,
    task_info: {},
    policy_ms: 1,
    env_ms: 2,
    step_ms: 3,
  };
}

function trajectory(turns: TrajectoryTurn[], extra: Partial<Trajectory> = {}): Trajectory {
  return {
    episode_id: 'g1.0',
    group_id: 'g1',
    task: 'click-test',
    seed: 4,
    prompt_ids: [1, 2, 3],
    turns,
    outcome: 'success',
    reward: 1,
    error: null,
    final_task_info: {},
    started_at: new Date(0).toISOString(),
    wall_ms: 10,
    ...extra,
  };
}

describe('Trajectory', () => {
  it('round-trips through JSON and its schema', () => {
    const t = trajectory([turn(0, [7, 8], [9]), turn(1, [10], [])]);
    expect(Trajectory.parse(JSON.parse(JSON.stringify(t)))).toEqual(t);
  });

  it('needs one sampler logprob per completion token', () => {
    const bad = { ...turn(0, [7, 8], []), logprobs: [-1] };
    expect(Trajectory.safeParse(trajectory([bad])).error?.issues[0]).toMatchObject({
      path: ['turns', 0, 'logprobs'],
      message: 'logprobs must have one entry per completion token',
    });
  });

  it('rejects unknown fields, negative ids, ids with ":" and unknown outcomes', () => {
    expect(Trajectory.safeParse({ ...trajectory([]), extra: 1 }).success).toBe(false);
    expect(Trajectory.safeParse(trajectory([turn(0, [-1], [])])).success).toBe(false);
    expect(Trajectory.safeParse(trajectory([], { episode_id: 'a:b' })).error?.issues[0]?.message).toMatch(
      /letters, digits/,
    );
    expect(Trajectory.safeParse({ ...trajectory([]), outcome: 'crashed' }).success).toBe(false);
  });
});

describe('TrajectoryGroup', () => {
  const group = (trajectories: Trajectory[]) => ({
    group_id: 'g1',
    task: 'click-test',
    seed: 4,
    policy,
    trajectories,
    completed_at: new Date(0).toISOString(),
  });

  it('holds episodes of its own task and seed', () => {
    expect(
      TrajectoryGroup.safeParse(
        group([trajectory([]), trajectory([], { episode_id: 'g1.1', outcome: 'fail', reward: 0 })]),
      ).success,
    ).toBe(true);
    expect(TrajectoryGroup.safeParse(group([trajectory([], { seed: 5 })])).error?.issues[0]?.message).toMatch(
      /episode g1.0 is not of this group/,
    );
  });

  it('never carries an infra_error episode', () => {
    expect(
      TrajectoryGroup.safeParse(group([trajectory([], { outcome: 'infra_error' })])).error?.issues[0]?.message,
    ).toMatch(/never carries an infra_error/);
  });
});

describe('ConsumedGroup', () => {
  const consumed = {
    trainer_version: 4,
    consumed_at: new Date(0).toISOString(),
    admission: 'admitted',
    token_texts: { '7': 'click', '9': '\n' },
    group: {
      group_id: 'g1',
      task: 'click-test',
      seed: 4,
      policy,
      trajectories: [trajectory([turn(0, [7], [9])])],
      completed_at: new Date(0).toISOString(),
    },
  };

  it('wraps a valid group with the trainer version, the admission and token texts by id', () => {
    expect(ConsumedGroup.parse(JSON.parse(JSON.stringify(consumed)))).toEqual(consumed);
    expect(ConsumedGroup.safeParse({ ...consumed, token_texts: undefined }).success).toBe(true);
  });

  it('rejects a bad group, a token key that is not an id, an unknown admission or field', () => {
    const issue = (value: unknown) => ConsumedGroup.safeParse(value).error?.issues[0]?.path.join('.');
    expect(issue({ ...consumed, group: { ...consumed.group, trajectories: [] } })).toBe('group.trajectories');
    expect(issue({ ...consumed, token_texts: { x: 'a' } })).toBe('token_texts.x');
    expect(issue({ ...consumed, admission: 'maybe' })).toBe('admission');
    expect(issue({ ...consumed, trainer_version: -1 })).toBe('trainer_version');
    expect(ConsumedGroup.safeParse({ ...consumed, extra: 1 }).success).toBe(false);
  });
});

describe('turnPromptIds / rolloutSequence', () => {
  it('rebuild exactly the prompts the builder produced, trimmed or not', () => {
    const builder = new TokenHistory([1, 2, 3], { contextTokens: 12 });
    const turns: TrajectoryTurn[] = [];
    const prompts: number[][] = [];
    for (let k = 0; k < 4; k++) {
      prompts.push(builder.prompt(3));
      const trimmed = builder.trimmedExchanges;
      const completion = [10 + k, 20 + k];
      builder.addCompletion(completion);
      builder.addEnv([30 + k, 40 + k]);
      turns.push(turn(k, completion, [30 + k, 40 + k], trimmed));
    }
    const t = trajectory(turns);
    expect(turns.map((x) => x.trimmed_exchanges)).toEqual([0, 0, 1, 2]);
    prompts.forEach((prompt, k) => expect(turnPromptIds(t, k)).toEqual(prompt));
    expect(() => rolloutSequence(t)).toThrow(/trimmed its context at turn 2/);
  });

  it('an untrimmed episode is one sequence with env tokens masked and logprob 0', () => {
    const t = trajectory([turn(0, [7, 8], [9]), turn(1, [10], [])]);
    expect(rolloutSequence(t)).toEqual({
      prompt_ids: [1, 2, 3],
      completion_ids: [7, 8, 9, 10],
      logprobs: [-0.07, -0.08, 0, -0.1],
      env_mask: [1, 1, 0, 1],
    });
    expect(() => turnPromptIds(t, 2)).toThrow(/has no turn 2/);
  });
});
