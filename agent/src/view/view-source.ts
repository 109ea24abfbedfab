import { existsSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { UsageError } from '@gauntlet/proto/cli';
import type { Trajectory } from '@gauntlet/proto/rollout';
import type { ActionMark } from '../report/action-marks.js';
import type { EpisodeRecord } from '../report/episode-record.js';

/** One turn as the viewer shows it; `screenshot` is relative to the source's folder. */
export interface ViewTurn {
  index: number;
  actor: string;
  url: string;
  text: string;
  action: string;
  parse_error: boolean;
  env_error: string;
  reward: number;
  done: boolean;
  screenshot: string | null;
  marks: ActionMark[];
  /** The page text the turn was played on (AXTree file, or the trajectory's rendered observation). */
  page: () => string;
}

export interface ViewEpisode {
  task: string;
  seed: number;
  outcome: string;
  reward: number;
  error: string | null;
  turns: ViewTurn[];
  final_screenshot: string | null;
}

/** What `view` reads: a run folder (episodes.jsonl) or a rollout tier's trajectories.jsonl. */
export interface ViewSource {
  /** Files are served from this folder only. */
  root: string;
  kind: 'run' | 'trajectories';
  /** Read again on every request, so a run still playing shows its new episodes. */
  episodes(): ViewEpisode[];
}

export function openViewSource(path: string): ViewSource {
  const full = resolve(path);
  if (!existsSync(full)) throw new UsageError(`RUN_DIR: ${path} does not exist`);
  if (statSync(full).isDirectory()) {
    const file = join(full, 'episodes.jsonl');
    if (!existsSync(file))
      throw new UsageError(`RUN_DIR: ${path} has no episodes.jsonl (is it a gauntlet-agent run folder?)`);
    return { root: full, kind: 'run', episodes: () => jsonLines<EpisodeRecord>(file).map((r) => runEpisode(full, r)) };
  }
  if (basename(full).endsWith('.jsonl')) {
    const root = dirname(full);
    return {
      root,
      kind: 'trajectories',
      episodes: () => jsonLines<unknown>(full).flatMap(trajectoriesOf).map(trajectoryEpisode),
    };
  }
  throw new UsageError(`RUN_DIR: ${path} is neither a run folder nor a trajectories.jsonl file`);
}

function jsonLines<T>(file: string): T[] {
  const lines = readFileSync(file, 'utf8').split('\n');
  // A line still being written (the run is playing) is skipped, not an error.
  return lines.flatMap((line) => {
    if (!line.trim()) return [];
    try {
      return [JSON.parse(line) as T];
    } catch {
      return [];
    }
  });
}

function runEpisode(root: string, record: EpisodeRecord): ViewEpisode {
  return {
    task: record.task,
    seed: record.seed,
    outcome: record.outcome,
    reward: record.reward,
    error: record.error ? `${record.error.name}: ${record.error.message}` : null,
    final_screenshot: record.final?.screenshot ?? null,
    turns: record.turns.map((turn) => ({
      index: turn.index,
      actor: turn.actor + (turn.oracle_silence ? ` (oracle: ${turn.oracle_silence})` : ''),
      url: turn.observation.url,
      text: turn.text,
      action: turn.action,
      parse_error: turn.parse_error,
      env_error: turn.env_error,
      reward: turn.reward,
      done: turn.done,
      screenshot: turn.screenshot ?? null,
      marks: turn.marks ?? [],
      page: () => (turn.axtree ? readInside(root, turn.axtree) : ''),
    })),
  };
}

/** A trajectories.jsonl line is one Trajectory or one TrajectoryGroup (its trajectories). */
function trajectoriesOf(line: unknown): Trajectory[] {
  const value = line as Partial<Trajectory> & { trajectories?: Trajectory[] };
  if (Array.isArray(value.trajectories)) return value.trajectories;
  return Array.isArray(value.turns) ? [value as Trajectory] : [];
}

function trajectoryEpisode(t: Trajectory): ViewEpisode {
  return {
    task: t.task,
    seed: t.seed,
    outcome: t.outcome,
    reward: t.reward,
    error: t.error ? `${t.error.name}: ${t.error.message}` : null,
    final_screenshot: null,
    turns: t.turns.map((turn) => ({
      index: turn.index,
      actor: turn.policy.adapter
        ? `${turn.policy.model} / ${turn.policy.adapter}@${turn.policy.version ?? '-'}`
        : turn.policy.model,
      url: /# Current page\n(.*)/.exec(turn.observation)?.[1] ?? '',
      text: turn.action_text,
      action: turn.action,
      parse_error: turn.action_fallback,
      env_error: turn.error,
      reward: turn.reward,
      done: turn.done,
      screenshot: null,
      marks: [],
      page: () => turn.observation,
    })),
  };
}

/** Reads a file the run names, refusing anything outside its folder. */
function readInside(root: string, path: string): string {
  const full = insideRoot(root, path);
  return full && existsSync(full) ? readFileSync(full, 'utf8') : '';
}

/** The absolute path of `path` under `root`, or null when it would leave it (.., absolute paths, NUL). */
export function insideRoot(root: string, path: string): string | null {
  if (path.includes('\0')) return null;
  const full = resolve(root, path);
  return full.startsWith(root.endsWith('/') ? root : `${root}/`) ? full : null;
}
