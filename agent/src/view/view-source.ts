import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { UsageError } from '@gauntlet/proto/cli';
import type { EpisodeRecord } from '../report/episode-record.js';
import { DemoFileError } from '../report/demo-file.js';
import { demoEpisode } from './demo-source.js';
import { TrajectoryLineError, trajectoryEpisodes } from './trajectory-source.js';
import type { ViewEpisode, ViewSource } from './view-types.js';

export function openViewSource(path: string): ViewSource {
  const full = resolve(path);
  if (!existsSync(full)) throw new UsageError(`RUN_DIR: ${path} does not exist`);
  if (statSync(full).isDirectory()) {
    if (existsSync(join(full, 'demo.json')) && !existsSync(join(full, 'episodes.jsonl')))
      return demoSource(join(full, 'demo.json'));
    const file = join(full, 'episodes.jsonl');
    if (existsSync(file))
      return {
        root: full,
        kind: 'run',
        episodes: () => jsonLines<EpisodeRecord>(file).map((r) => runEpisode(full, r)),
      };
    if (trajectoryFiles(full).length === 0)
      throw new UsageError(
        `RUN_DIR: ${path} has no episodes.jsonl (a gauntlet-agent run folder), demo.json (a recording) nor trajectories*.jsonl files`,
      );
    // Listed again on every read, so files added while it is viewed show up too.
    return trajectorySource(full, () => trajectoryFiles(full));
  }
  if (basename(full).endsWith('.jsonl')) return trajectorySource(dirname(full), () => [full]);
  if (basename(full).endsWith('.json')) return demoSource(full);
  throw new UsageError(`RUN_DIR: ${path} is neither a run folder, a demo.json nor a trajectories .jsonl file`);
}

/**
 * A recording: checked once on opening (a bad file is a usage error naming it), then read again
 * on every request like the other sources. Its screenshots are served from its folder.
 */
function demoSource(file: string): ViewSource {
  const open = () => {
    try {
      return [demoEpisode(file)];
    } catch (error) {
      if (error instanceof DemoFileError) throw new UsageError(`RUN_DIR: ${error.message}`);
      throw error;
    }
  };
  open();
  return { root: dirname(file), kind: 'demo', episodes: open };
}

/** A folder's trajectories files (named *trajectories*.jsonl, so a trainer's metrics.jsonl is left out), by name. */
function trajectoryFiles(dir: string): string[] {
  return readdirSync(dir)
    .filter((name) => name.endsWith('.jsonl') && name.includes('trajectories'))
    .sort()
    .map((name) => join(dir, name))
    .filter((file) => statSync(file).isFile());
}

/** Trajectories are checked once on opening: a bad line is a usage error naming it, before anything is served. */
function trajectorySource(root: string, files: () => string[]): ViewSource {
  try {
    trajectoryEpisodes(files());
  } catch (error) {
    if (error instanceof TrajectoryLineError) throw new UsageError(`RUN_DIR: ${error.message}`);
    throw error;
  }
  return { root, kind: 'trajectories', episodes: () => trajectoryEpisodes(files()) };
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
    id: record.episode_id,
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
