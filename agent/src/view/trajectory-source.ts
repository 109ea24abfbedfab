import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { ConsumedGroup, Trajectory, TrajectoryGroup } from '@gauntlet/proto/rollout';
import type { ViewEpisode, ViewToken, ViewTurn } from './view-types.js';

/** A line of a trajectories file that is not a Trajectory, TrajectoryGroup or ConsumedGroup. */
export class TrajectoryLineError extends Error {
  override name = 'TrajectoryLineError';
}

/** What the trainer knew when it consumed a group (absent for plain Trajectory/TrajectoryGroup lines). */
interface Consumption {
  trainerVersion: number;
  admission: ConsumedGroup['admission'];
  tokenTexts: Record<string, string>;
}

/**
 * The episodes of trajectories files, in file order: each line one Trajectory, one
 * TrajectoryGroup, or one ConsumedGroup (`grpo --keep-trajectories`). A bad line throws naming the
 * file and line; a last line without its newline that does not parse is being written and is skipped.
 */
export function trajectoryEpisodes(files: string[]): ViewEpisode[] {
  return files.flatMap((file) => {
    const text = readFileSync(file, 'utf8');
    const lines = text.split('\n');
    return lines.flatMap((line, i) => {
      if (!line.trim()) return [];
      const where = `${basename(file)} line ${i + 1}`;
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch (error) {
        if (i === lines.length - 1) return [];
        throw new TrajectoryLineError(`${where}: not JSON (${(error as Error).message})`);
      }
      return episodesOf(value, where);
    });
  });
}

function episodesOf(value: unknown, where: string): ViewEpisode[] {
  const shape = value !== null && typeof value === 'object' ? value : {};
  if ('group' in shape) {
    const kept = checked(ConsumedGroup.safeParse(value), where, 'ConsumedGroup');
    const consumption = {
      trainerVersion: kept.trainer_version,
      admission: kept.admission,
      tokenTexts: kept.token_texts ?? {},
    };
    return kept.group.trajectories.map((t) => trajectoryEpisode(t, consumption));
  }
  if ('trajectories' in shape)
    return checked(TrajectoryGroup.safeParse(value), where, 'TrajectoryGroup').trajectories.map((t) =>
      trajectoryEpisode(t, null),
    );
  return [trajectoryEpisode(checked(Trajectory.safeParse(value), where, 'Trajectory'), null)];
}

type Parsed<T> =
  { success: true; data: T } | { success: false; error: { issues: { path: PropertyKey[]; message: string }[] } };

function checked<T>(result: Parsed<T>, where: string, kind: string): T {
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const path = issue.path.map(String).join('.') || '(line)';
  throw new TrajectoryLineError(`${where}: not a ${kind}: ${path}: ${issue.message}`);
}

function trajectoryEpisode(t: Trajectory, consumed: Consumption | null): ViewEpisode {
  const group = t.group_id ? `group ${t.group_id}` : 'no group';
  const note = consumed
    ? `${group} · consumed by the trainer at v${consumed.trainerVersion} (${consumed.admission})`
    : `${group} · no trainer version recorded: staleness unknown`;
  return {
    id: t.episode_id,
    task: t.task,
    seed: t.seed,
    outcome: t.outcome,
    reward: t.reward,
    error: t.error ? `${t.error.name}: ${t.error.message}` : null,
    note,
    final_screenshot: null,
    turns: t.turns.map((turn): ViewTurn => {
      const { version } = turn.policy;
      const text = (id: number) => consumed?.tokenTexts[String(id)] ?? null;
      const tokens: ViewToken[] = [
        ...turn.completion_ids.map((id, k) => ({ id, text: text(id), logprob: turn.logprobs[k]!, env: false })),
        ...turn.env_ids.map((id) => ({ id, text: text(id), logprob: null, env: true })),
      ];
      return {
        index: turn.index,
        actor: turn.policy.adapter
          ? `${turn.policy.model} / ${turn.policy.adapter}@${version ?? '-'}`
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
        rollout: {
          tokens,
          version,
          trainer_version: consumed?.trainerVersion ?? null,
          staleness: consumed && version !== null ? consumed.trainerVersion - version : null,
        },
      };
    }),
  };
}
