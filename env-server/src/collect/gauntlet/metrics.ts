import type { Trajectory, TrajectoryTurn } from '@gauntlet/proto/rollout';
import { gauntletInfo } from './env-port.js';
import { progress } from './rollout.js';

export interface StepStats {
  attempts: number;
  solved: number;
  success_rate: number;
  actions_mean: number;
  wall_ms_mean: number;
  env_ms_mean: number;
}

export interface RunMetrics {
  episodes: number;
  /** Episodes that solved every step. */
  success_rate: number;
  steps_solved_mean: number;
  wall_ms_mean: number;
  per_step: Record<string, StepStats>;
  per_type: Record<string, StepStats>;
  /** Episodes that did not succeed, with their outcome (fail, timeout, infra_error) and why. */
  failures: {
    task: string;
    seed: number;
    solved: number;
    total: number;
    outcome: string;
    error?: string;
    stuck_type?: string;
  }[];
}

/** One attempt at one gauntlet step: its turns, and whether one of them advanced the run. */
interface Attempt {
  step: number;
  type: string;
  turns: TrajectoryTurn[];
}

/** Splits an episode's turns by the Gauntlet step they were taken on. */
export function attempts(episode: Trajectory): Attempt[] {
  const out: Attempt[] = [];
  for (const turn of episode.turns) {
    const info = gauntletInfo(turn.task_info);
    const step = info.step ?? 0;
    const type = info.type ?? '';
    const last = out[out.length - 1];
    if (last && last.step === step && last.type === type && !last.turns.some((t) => t.reward > 0))
      last.turns.push(turn);
    else out.push({ step, type, turns: [turn] });
  }
  return out;
}

/** Per-step and per-type success, actions and time over a run's episodes (metrics.json). */
export function runMetrics(episodes: Trajectory[]): RunMetrics {
  const byStep = new Map<string, Attempt[]>();
  const byType = new Map<string, Attempt[]>();
  for (const episode of episodes) {
    for (const attempt of attempts(episode)) {
      push(byStep, String(attempt.step), attempt);
      push(byType, attempt.type, attempt);
    }
  }
  const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);
  return {
    episodes: episodes.length,
    success_rate: mean(episodes.map((e) => (e.outcome === 'success' ? 1 : 0))),
    steps_solved_mean: mean(episodes.map((e) => progress(e).solved)),
    wall_ms_mean: round(mean(episodes.map((e) => e.wall_ms))),
    per_step: Object.fromEntries([...byStep].sort(([a], [b]) => Number(a) - Number(b)).map(([k, v]) => [k, stats(v)])),
    per_type: Object.fromEntries([...byType].sort(([a], [b]) => a.localeCompare(b)).map(([k, v]) => [k, stats(v)])),
    failures: episodes
      .filter((e) => e.outcome !== 'success')
      .map((e) => ({
        task: e.task,
        seed: e.seed,
        ...progress(e),
        outcome: e.outcome,
        ...(e.error ? { error: e.error.message } : {}),
        ...(e.turns.length ? { stuck_type: gauntletInfo(e.turns[e.turns.length - 1]!.task_info).type ?? '' } : {}),
      })),
  };
}

function stats(list: Attempt[]): StepStats {
  const solved = list.filter((a) => a.turns.some((t) => t.reward > 0)).length;
  const mean = (f: (a: Attempt) => number) => round(list.reduce((sum, a) => sum + f(a), 0) / list.length);
  return {
    attempts: list.length,
    solved,
    success_rate: solved / list.length,
    actions_mean: mean((a) => a.turns.length),
    wall_ms_mean: mean((a) => a.turns.reduce((s, t) => s + t.step_ms, 0)),
    env_ms_mean: mean((a) => a.turns.reduce((s, t) => s + t.env_ms, 0)),
  };
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

const round = (x: number) => Math.round(x * 10) / 10;
