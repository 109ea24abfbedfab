import type { EpisodeRecord, TurnRecord } from './episode-record.js';

/** Sums over a set of turns: the same fields for a run, a task, an episode and a Gauntlet step. */
export interface Usage {
  steps: number;
  /** Action calls sent (a multi-line reply counts each line). */
  actions: number;
  oracle_steps: number;
  model_steps: number;
  model_calls: number;
  tokens_in: number;
  tokens_out: number;
  cost: number;
  /** Policy and env time of the turns, in ms. */
  wall_ms: number;
  /** parse_error (no valid action), action_error (the env refused it), and the episode's own error by name. */
  errors: Record<string, number>;
}

export interface GauntletStepMetrics extends Usage {
  step: number;
  type: string;
  solved: boolean;
  /** Who acted on this step: oracle, model, or both (hybrid take-over). */
  acted: 'oracle' | 'model' | 'both' | 'none';
}

export interface EpisodeMetrics extends Usage {
  task: string;
  seed: number;
  outcome: EpisodeRecord['outcome'];
  success: boolean;
  reward: number;
  episode_wall_ms: number;
  error: string | null;
  gauntlet?: { solved: number; total: number; steps: GauntletStepMetrics[] };
}

export interface GroupMetrics extends Usage {
  episodes: number;
  successes: number;
  /** Episodes the env could not judge (an open-web task without a goal spec): never successes, counted apart. */
  unjudged: number;
  /** successes / judged episodes (episodes − unjudged); 0 when none was judged. */
  success_rate: number;
  mean_steps: number;
  mean_wall_ms: number;
}

export interface RunMetrics {
  run: Record<string, unknown>;
  totals: GroupMetrics;
  tasks: Record<string, GroupMetrics>;
  /** Gauntlet steps by challenge type: how many were met and solved, and who acted. */
  gauntlet_types: Record<string, Usage & { seen: number; solved: number; success_rate: number }>;
  episodes: EpisodeMetrics[];
}

function usageOf(turns: readonly TurnRecord[]): Usage {
  const errors: Record<string, number> = {};
  const bump = (key: string) => (errors[key] = (errors[key] ?? 0) + 1);
  for (const t of turns) {
    if (t.parse_error) bump('parse_error');
    if (t.env_error) bump('action_error');
  }
  return {
    steps: turns.length,
    actions: turns.reduce((n, t) => n + t.action.split('\n').filter((l) => l.trim()).length, 0),
    oracle_steps: turns.filter((t) => t.actor === 'oracle').length,
    model_steps: turns.filter((t) => t.actor === 'model').length,
    model_calls: sum(turns, (t) => t.model_calls),
    tokens_in: sum(turns, (t) => t.tokens_in),
    tokens_out: sum(turns, (t) => t.tokens_out),
    cost: sum(turns, (t) => t.cost ?? 0),
    wall_ms: Math.round(sum(turns, (t) => t.policy_ms + t.step_ms)),
    errors,
  };
}

function addUsage(into: Usage, more: Usage): void {
  for (const key of [
    'steps',
    'actions',
    'oracle_steps',
    'model_steps',
    'model_calls',
    'tokens_in',
    'tokens_out',
    'cost',
    'wall_ms',
  ] as const)
    into[key] += more[key];
  for (const [name, count] of Object.entries(more.errors)) into.errors[name] = (into.errors[name] ?? 0) + count;
}

export function episodeMetrics(record: EpisodeRecord): EpisodeMetrics {
  const usage = usageOf(record.turns);
  if (record.error) usage.errors[record.error.name] = (usage.errors[record.error.name] ?? 0) + 1;
  const solved = record.final_task_info['solved'];
  const total = record.final_task_info['total'];
  return {
    task: record.task,
    seed: record.seed,
    outcome: record.outcome,
    success: record.outcome === 'success',
    reward: record.reward,
    episode_wall_ms: record.wall_ms,
    error: record.error ? `${record.error.name}: ${record.error.message}` : null,
    ...usage,
    ...(typeof total === 'number'
      ? { gauntlet: { solved: typeof solved === 'number' ? solved : 0, total, steps: gauntletSteps(record) } }
      : {}),
  };
}

/** The episode's turns grouped by the Gauntlet step they were played on. */
function gauntletSteps(record: EpisodeRecord): GauntletStepMetrics[] {
  const solved = typeof record.final_task_info['solved'] === 'number' ? record.final_task_info['solved'] : 0;
  const byStep = new Map<number, { type: string; turns: TurnRecord[] }>();
  for (const turn of record.turns) {
    const step = turn.observation.gauntlet_step;
    if (step === undefined) continue;
    const entry = byStep.get(step) ?? { type: turn.observation.gauntlet_type ?? '', turns: [] };
    entry.turns.push(turn);
    byStep.set(step, entry);
  }
  return [...byStep].map(([step, { type, turns }]) => {
    const usage = usageOf(turns);
    const acted =
      usage.oracle_steps && usage.model_steps
        ? 'both'
        : usage.model_steps
          ? 'model'
          : usage.oracle_steps
            ? 'oracle'
            : 'none';
    return { step, type, solved: solved >= step, acted, ...usage };
  });
}

export function runMetrics(records: readonly EpisodeRecord[], run: Record<string, unknown>): RunMetrics {
  const episodes = records.map(episodeMetrics);
  const group = (list: EpisodeMetrics[]): GroupMetrics => {
    const usage = emptyUsage();
    list.forEach((e) => addUsage(usage, e));
    const successes = list.filter((e) => e.success).length;
    const unjudged = list.filter((e) => e.outcome === 'unjudged').length;
    const judged = list.length - unjudged;
    return {
      episodes: list.length,
      successes,
      unjudged,
      success_rate: judged ? successes / judged : 0,
      mean_steps: list.length ? usage.steps / list.length : 0,
      mean_wall_ms: list.length ? Math.round(sum(list, (e) => e.episode_wall_ms) / list.length) : 0,
      ...usage,
    };
  };
  const tasks: RunMetrics['tasks'] = {};
  for (const task of new Set(episodes.map((e) => e.task))) tasks[task] = group(episodes.filter((e) => e.task === task));
  const types: RunMetrics['gauntlet_types'] = {};
  for (const step of episodes.flatMap((e) => e.gauntlet?.steps ?? [])) {
    const entry = (types[step.type] ??= { ...emptyUsage(), seen: 0, solved: 0, success_rate: 0 });
    addUsage(entry, step);
    entry.seen += 1;
    entry.solved += step.solved ? 1 : 0;
    entry.success_rate = entry.solved / entry.seen;
  }
  return { run, totals: group(episodes), tasks, gauntlet_types: types, episodes };
}

function emptyUsage(): Usage {
  return {
    steps: 0,
    actions: 0,
    oracle_steps: 0,
    model_steps: 0,
    model_calls: 0,
    tokens_in: 0,
    tokens_out: 0,
    cost: 0,
    wall_ms: 0,
    errors: {},
  };
}

const sum = <T>(items: readonly T[], of: (item: T) => number) => items.reduce((n, item) => n + of(item), 0);
