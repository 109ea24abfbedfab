// Test fixtures for the RL loop: trajectories and groups that satisfy the rollout contract.
import { TrajectoryGroup, type PolicyRef, type Trajectory, type TrajectoryTurn } from '@gauntlet/proto/rollout';

/** Test fixtures: a turn, an episode and a group with the fields the contract requires. */
export function turn(index: number, extra: Partial<TrajectoryTurn> = {}): TrajectoryTurn {
  return {
    index,
    observation: 'obs',
    trimmed_exchanges: 0,
    completion_ids: [],
    logprobs: [],
    env_ids: [],
    action_text: 'noop()',
    action: 'noop()',
    action_fallback: false,
    reward: 0,
    done: false,
    error: '',
    policy: { model: 'run@v0', adapter: 'run@v0', version: 0 },
    task_info: {},
    policy_ms: 1,
    env_ms: 1,
    step_ms: 1,
    ...extra,
  };
}

export function episode(groupId: string, index: number, turns: TrajectoryTurn[], reward: number): Trajectory {
  return {
    episode_id: `${groupId}.${index}`,
    group_id: groupId,
    task: 'miniwob.click-test',
    seed: 3,
    prompt_ids: [1, 2, 3],
    turns,
    outcome: reward > 0 ? 'success' : 'fail',
    reward,
    error: null,
    final_task_info: {},
    started_at: new Date(0).toISOString(),
    wall_ms: 10,
  };
}

export function group(
  groupId: string,
  rewards: number[],
  policy: PolicyRef,
  turnsOf?: (i: number) => TrajectoryTurn[],
) {
  return TrajectoryGroup.parse({
    group_id: groupId,
    task: 'miniwob.click-test',
    seed: 3,
    policy,
    trajectories: rewards.map((r, i) =>
      episode(groupId, i, turnsOf?.(i) ?? [turn(0, { completion_ids: [7], logprobs: [-1], policy, done: true })], r),
    ),
    completed_at: new Date(0).toISOString(),
  });
}
