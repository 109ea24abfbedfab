import type { Trajectory, TrajectoryTurn } from '@gauntlet/proto/rollout';
import type { ActionMark } from './action-marks.js';
import type { EpisodeLog, TurnLog } from './turn-log.js';

/** What `run --screenshots` keeps of a page (paths relative to the run folder). */
export interface PageFiles {
  /** The page before the action: screenshots/<episode>/<turn>.png. */
  screenshot?: string;
  /** Its AXTree text: observations/<episode>/<turn>.txt. */
  axtree?: string;
}

/** One turn as episodes.jsonl keeps it. */
export interface TurnRecord extends PageFiles {
  index: number;
  actor: TurnLog['actor'];
  /** Why the oracle did not act, when the model did in hybrid mode. */
  oracle_silence?: string;
  observation: { url: string; chars: number; gauntlet_step?: number; gauntlet_type?: string };
  /** The model's raw reply (the oracle's action for oracle turns). */
  text: string;
  action: string;
  parse_error: boolean;
  env_error: string;
  reward: number;
  done: boolean;
  model_calls: number;
  tokens_in: number;
  tokens_out: number;
  cost?: number;
  trimmed_exchanges: number;
  policy_ms: number;
  step_ms: number;
  /** With --screenshots: where each action line landed on the screenshot. */
  marks?: ActionMark[];
}

/** One episode as episodes.jsonl keeps it: the outcome and every turn. */
export interface EpisodeRecord {
  episode_id: string;
  task: string;
  seed: number;
  outcome: Trajectory['outcome'];
  reward: number;
  error: Trajectory['error'];
  wall_ms: number;
  started_at: string;
  final_task_info: Record<string, unknown>;
  turns: TurnRecord[];
  /** With --screenshots: the page after the last action. */
  final?: PageFiles;
}

const NO_LOG: TurnLog = {
  actor: 'oracle',
  modelCalls: 0,
  tokensIn: 0,
  tokensOut: 0,
  usageReported: false,
  trimmedExchanges: 0,
};

export function episodeRecord(trajectory: Trajectory, log: EpisodeLog): EpisodeRecord {
  return {
    episode_id: trajectory.episode_id,
    task: trajectory.task,
    seed: trajectory.seed,
    outcome: trajectory.outcome,
    reward: trajectory.reward,
    error: trajectory.error,
    wall_ms: trajectory.wall_ms,
    started_at: trajectory.started_at,
    final_task_info: trajectory.final_task_info,
    turns: trajectory.turns.map((turn) => turnRecord(turn, log[turn.index] ?? NO_LOG)),
  };
}

function turnRecord(turn: TrajectoryTurn, log: TurnLog): TurnRecord {
  const step = turn.task_info['step'];
  const type = turn.task_info['type'];
  return {
    index: turn.index,
    actor: log.actor,
    ...(log.oracleSilence ? { oracle_silence: log.oracleSilence } : {}),
    observation: {
      url: /# Current page\n(.*)/.exec(turn.observation)?.[1] ?? '',
      chars: turn.observation.length,
      ...(typeof step === 'number' ? { gauntlet_step: step } : {}),
      ...(typeof type === 'string' ? { gauntlet_type: type } : {}),
    },
    text: turn.action_text,
    action: turn.action,
    parse_error: turn.action_fallback,
    env_error: turn.error,
    reward: turn.reward,
    done: turn.done,
    model_calls: log.modelCalls,
    tokens_in: log.tokensIn,
    tokens_out: log.tokensOut,
    ...(log.cost === undefined ? {} : { cost: log.cost }),
    trimmed_exchanges: log.trimmedExchanges,
    policy_ms: turn.policy_ms,
    step_ms: turn.step_ms,
  };
}
