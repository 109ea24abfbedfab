import type { DemonstrationView } from '@gauntlet/proto/agent';
import type { EpisodeSettings, PolicyRef, Trajectory } from '@gauntlet/proto/rollout';
import { playEpisode, type Players } from './play.js';

export interface EvalPlan {
  tasks: string[];
  episodesPerTask: number;
  /** Episode i of a task plays seed firstSeed + i. */
  firstSeed: number;
  policy: PolicyRef;
  settings: EpisodeSettings;
  concurrency: number;
  /** Tries per episode while it ends as infra_error. */
  attempts: number;
  /** Per task, a demonstration shown in every observation (absent: none). */
  demonstrations?: Record<string, DemonstrationView>;
}

export interface TaskScore {
  task: string;
  episodes: number;
  success: number;
  fail: number;
  timeout: number;
  infra_error: number;
  /** Episodes the env finished but could not judge (a task without a goal spec): never a success. */
  unjudged: number;
  /**
   * Successes over the judged episodes that got an outcome (infra errors left out: they say nothing
   * of the policy; unjudged ones too: nothing says whether they succeeded).
   */
  success_rate: number;
  /** Over the same episodes as success_rate. */
  mean_reward: number;
  /** Over every episode that got an outcome (unjudged ones included). */
  mean_turns: number;
}

export interface EvalReport {
  policy: PolicyRef;
  tasks: TaskScore[];
  episodes: {
    task: string;
    seed: number;
    episode_id: string;
    outcome: Trajectory['outcome'];
    reward: number;
    turns: number;
    wall_ms: number;
    attempts: number;
  }[];
  wall_s: number;
}

/**
 * Plays `episodesPerTask` episodes of each task, `concurrency` at a time, and scores them per
 * task. An episode that ends as infra_error is played again (up to `attempts` tries) and, if
 * it never gets through, counted apart: it is not a failure of the policy.
 */
export async function evaluate(
  plan: EvalPlan,
  players: Players,
  onEpisode?: (done: number, total: number, t: Trajectory) => void,
  signal?: AbortSignal,
): Promise<EvalReport> {
  const started = performance.now();
  const specs = plan.tasks.flatMap((task) =>
    Array.from({ length: plan.episodesPerTask }, (_, i) => ({ task, seed: plan.firstSeed + i })),
  );
  const results: EvalReport['episodes'] = new Array(specs.length);
  let next = 0;
  let done = 0;
  const slot = async () => {
    while (next < specs.length && !signal?.aborted) {
      const index = next++;
      const { task, seed } = specs[index]!;
      let trajectory: Trajectory;
      let attempts = 0;
      do {
        attempts += 1;
        trajectory = await playEpisode(
          {
            task,
            seed,
            episode_id: `eval-${task}-${seed}`,
            group_id: null,
            policy: plan.policy,
            settings: plan.settings,
            demonstration: plan.demonstrations?.[task],
          },
          players,
          signal,
        );
      } while (trajectory.outcome === 'infra_error' && attempts < plan.attempts);
      results[index] = {
        task,
        seed,
        episode_id: trajectory.episode_id,
        outcome: trajectory.outcome,
        reward: trajectory.reward,
        turns: trajectory.turns.length,
        wall_ms: trajectory.wall_ms,
        attempts,
      };
      onEpisode?.(++done, specs.length, trajectory);
    }
  };
  await Promise.all(Array.from({ length: Math.min(plan.concurrency, specs.length) }, slot));
  const episodes = results.filter(Boolean);
  return {
    policy: plan.policy,
    tasks: plan.tasks.map((task) =>
      score(
        task,
        episodes.filter((e) => e.task === task),
      ),
    ),
    episodes,
    wall_s: Math.round(performance.now() - started) / 1000,
  };
}

export function score(task: string, episodes: EvalReport['episodes']): TaskScore {
  const count = (outcome: Trajectory['outcome']) => episodes.filter((e) => e.outcome === outcome).length;
  const played = episodes.filter((e) => e.outcome !== 'infra_error');
  const scored = played.filter((e) => e.outcome !== 'unjudged');
  const mean = (xs: number[]) =>
    xs.length ? Math.round((xs.reduce((a, b) => a + b, 0) / xs.length) * 1000) / 1000 : 0;
  return {
    task,
    episodes: episodes.length,
    success: count('success'),
    fail: count('fail'),
    timeout: count('timeout'),
    infra_error: count('infra_error'),
    unjudged: count('unjudged'),
    success_rate: scored.length ? Math.round((count('success') / scored.length) * 1000) / 1000 : 0,
    mean_reward: mean(scored.map((e) => e.reward)),
    mean_turns: mean(played.map((e) => e.turns)),
  };
}
