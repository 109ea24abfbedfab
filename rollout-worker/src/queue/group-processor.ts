import { JOB_NAMES, TrajectoryGroup } from '@gauntlet/proto/rollout';
import { GROUP_JOBS, parsePayload, readJob } from '@gauntlet/proto/rollout/queue';
import { UnrecoverableError, type Job, type Queue } from 'bullmq';
import type { WorkerMetrics } from '../metrics/metrics.js';

/** What a finished group job returns (the trajectories themselves go to the trainer's queue). */
export interface GroupSummary {
  group_id: string;
  episodes: number;
  successes: number;
  mean_reward: number;
}

export interface GroupProcessorDeps {
  /** QUEUES.trajectoryGroups: where the trainer takes completed groups from. */
  trainer: Queue;
  keepSeconds: number;
  metrics?: WorkerMetrics | undefined;
}

/**
 * The processor of QUEUES.groups: runs once every episode of a group has completed. It puts the
 * G trajectories in order, checks them as a TrajectoryGroup and hands the group to the trainer's
 * queue under the group's id (so a retry cannot hand it over twice). A group short of episodes
 * is dropped, never padded.
 */
export function groupProcessor(deps: GroupProcessorDeps) {
  return async (job: Job): Promise<GroupSummary> => {
    const group = readJob(GROUP_JOBS, job);
    // TrajectoryGroup checks every trajectory below; here they are only put in episode order.
    const trajectories = Object.values(await job.getChildrenValues())
      .filter(
        (v): v is { episode_id: string } =>
          typeof v === 'object' && v !== null && typeof (v as { episode_id?: unknown }).episode_id === 'string',
      )
      .sort((a, b) => episodeIndex(a.episode_id) - episodeIndex(b.episode_id));
    if (trajectories.length !== group.size) {
      throw new UnrecoverableError(
        `group ${group.group_id} has ${trajectories.length} of its ${group.size} episodes; dropped whole (a group is never padded)`,
      );
    }
    const assembled = parsePayload(TrajectoryGroup, JOB_NAMES.group, job.id, {
      group_id: group.group_id,
      task: group.task,
      seed: group.seed,
      policy: group.policy,
      trajectories,
      completed_at: new Date().toISOString(),
    });
    const keep = { age: deps.keepSeconds };
    await deps.trainer.add(JOB_NAMES.trajectoryGroup, assembled, {
      jobId: group.group_id,
      removeOnComplete: keep,
      removeOnFail: keep,
    });
    deps.metrics?.groupsCompleted.inc();
    const successes = assembled.trajectories.filter((t) => t.outcome === 'success').length;
    return {
      group_id: group.group_id,
      episodes: trajectories.length,
      successes,
      mean_reward: assembled.trajectories.reduce((s, t) => s + t.reward, 0) / trajectories.length,
    };
  };
}

function episodeIndex(episodeId: string): number {
  return Number(episodeId.slice(episodeId.lastIndexOf('.') + 1));
}
