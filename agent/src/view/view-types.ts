import type { ActionMark } from '../report/action-marks.js';

/** One token of a rollout turn: the policy's (with the sampler's logprob) or the env's (env mask 0). */
export interface ViewToken {
  id: number;
  /** Its text when the file says (a trainer's kept groups); null: the id only. */
  text: string | null;
  /** null for env tokens, which the policy did not sample. */
  logprob: number | null;
  env: boolean;
}

/** What a rollout trajectory adds to a turn. */
export interface RolloutTurn {
  tokens: ViewToken[];
  /** The policy version that played the turn (null: not versioned). */
  version: number | null;
  /** The trainer's version when it consumed the group (null: the file does not say). */
  trainer_version: number | null;
  /** trainer_version − version, when both are known. */
  staleness: number | null;
}

/** One turn as the viewer shows it; `screenshot` is relative to the source's folder. */
export interface ViewTurn {
  index: number;
  actor: string;
  url: string;
  /** The model's raw reply (null for a person's recorded step: nobody wrote one). */
  text: string | null;
  action: string;
  parse_error: boolean;
  env_error: string;
  reward: number;
  done: boolean;
  screenshot: string | null;
  marks: ActionMark[];
  /** The page text the turn was played on (AXTree file, or the trajectory's rendered observation). */
  page: () => string;
  rollout?: RolloutTurn;
}

export interface ViewEpisode {
  /** The episode id: the page checks it, since a trainer's kept file is rewritten while it is viewed. */
  id: string;
  task: string;
  seed: number;
  outcome: string;
  reward: number;
  error: string | null;
  /** One line about where the episode came from (a rollout group and its consumption). */
  note?: string;
  turns: ViewTurn[];
  final_screenshot: string | null;
}

/**
 * What `view` reads: a run folder (episodes.jsonl), a person's recording (demo.json), or rollout
 * trajectories (a .jsonl file or a folder of them).
 */
export interface ViewSource {
  /** Files are served from this folder only. */
  root: string;
  kind: 'run' | 'demo' | 'trajectories';
  /** Read again on every request, so a run still playing shows its new episodes. */
  episodes(): ViewEpisode[];
}
