import type { EpisodeRecord, Turn } from './rollout.js';

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
  failures: { task: string; seed: number; solved: number; total: number; outcome: string; error?: string; stuck_type?: string }[];
}

/** One attempt at one gauntlet step: its turns, and whether one of them advanced the run. */
interface Attempt {
  step: number;
  type: string;
  turns: Turn[];
}

/** Splits an episode's turns by the step they were taken on. */
export function attempts(episode: EpisodeRecord): Attempt[] {
  const out: Attempt[] = [];
  for (const turn of episode.turns) {
    const last = out[out.length - 1];
    if (last && last.step === turn.step && last.type === turn.type && !last.turns.some((t) => t.reward > 0)) last.turns.push(turn);
    else out.push({ step: turn.step, type: turn.type, turns: [turn] });
  }
  return out;
}

/** Per-step and per-type success, actions and time over a run's episodes (metrics.json). */
export function runMetrics(episodes: EpisodeRecord[]): RunMetrics {
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
    success_rate: mean(episodes.map((e) => (e.success ? 1 : 0))),
    steps_solved_mean: mean(episodes.map((e) => e.solved)),
    wall_ms_mean: round(mean(episodes.map((e) => e.wallMs))),
    per_step: Object.fromEntries([...byStep].sort(([a], [b]) => Number(a) - Number(b)).map(([k, v]) => [k, stats(v)])),
    per_type: Object.fromEntries([...byType].sort(([a], [b]) => a.localeCompare(b)).map(([k, v]) => [k, stats(v)])),
    failures: episodes.filter((e) => !e.success).map((e) => ({
      task: e.task, seed: e.seed, solved: e.solved, total: e.total, outcome: e.outcome,
      ...(e.error ? { error: e.error } : {}),
      ...(e.turns.length ? { stuck_type: e.turns[e.turns.length - 1]!.type } : {}),
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
    wall_ms_mean: mean((a) => a.turns.reduce((s, t) => s + t.wallMs, 0)),
    env_ms_mean: mean((a) => a.turns.reduce((s, t) => s + t.envMs, 0)),
  };
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

const round = (x: number) => Math.round(x * 10) / 10;
