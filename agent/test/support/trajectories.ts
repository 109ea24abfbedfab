import type { ConsumedGroup, Trajectory, TrajectoryTurn } from '@gauntlet/proto/rollout';

// Rollout data as the rollout tier and `grpo --keep-trajectories` write it, for the viewer's tests.

export function trajectoryTurn(index: number, version: number, extra: Partial<TrajectoryTurn> = {}): TrajectoryTurn {
  return {
    index,
    observation: `# Current page\nhttp://x/${index}\n[7] button 'Go'\nStaticText 'step ${index}'`,
    trimmed_exchanges: 0,
    completion_ids: [11, 12, 13],
    logprobs: [-0.01, -1.5, -6],
    env_ids: [20, 21],
    action_text: "<think>go</think> click('7')",
    action: "click('7')",
    action_fallback: false,
    reward: 0,
    done: false,
    error: '',
    policy: { model: 'tiny', adapter: `run@v${version}`, version },
    task_info: {},
    policy_ms: 1,
    env_ms: 1,
    step_ms: 1,
    ...extra,
  };
}

export function trajectory(groupId: string, index: number, versions: number[]): Trajectory {
  const turns = versions.map((v, k) =>
    trajectoryTurn(k, v, k === versions.length - 1 ? { reward: 1, done: true } : {}),
  );
  return {
    episode_id: `${groupId}.${index}`,
    group_id: groupId,
    task: 'click-button',
    seed: 4,
    prompt_ids: [1, 2],
    turns,
    outcome: 'success',
    reward: 1,
    error: null,
    final_task_info: {},
    started_at: new Date(0).toISOString(),
    wall_ms: 5,
  };
}

/** A group the trainer consumed at `trainerVersion`, its turns played at `versions`. */
export function consumedGroup(groupId: string, trainerVersion: number, versions: number[]): ConsumedGroup {
  return {
    trainer_version: trainerVersion,
    consumed_at: new Date(0).toISOString(),
    admission: 'admitted',
    token_texts: { '11': 'click', '12': "('", '13': "7')", '20': '<|im_end|>', '21': '\n' },
    group: {
      group_id: groupId,
      task: 'click-button',
      seed: 4,
      policy: { model: 'tiny', adapter: `run@v${versions[0]}`, version: versions[0]! },
      trajectories: [trajectory(groupId, 0, versions), trajectory(groupId, 1, versions)],
      completed_at: new Date(0).toISOString(),
    },
  };
}
