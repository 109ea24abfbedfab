import type { ObservationFormat } from '@gauntlet/proto';
import { PolicyGaveUpError, type Trajectory } from '@gauntlet/proto/rollout';
import { runEpisode, scriptedPolicy, taskInfo, type EpisodeEnv, type EpisodePolicy } from '@gauntlet/proto/agent';
import { gauntletOracle } from '../../tasks/gauntlet/oracle/policy.js';
import { ORACLE_ACTION_SET, ORACLE_OBSERVATION, gauntletInfo } from './env-port.js';

/** Actions an oracle may spend on one step before the rollout gives up on it (the env's budget still applies). */
const MAX_ACTIONS_PER_STEP = 60;

/** The name oracle turns record as their policy. */
export const ORACLE_MODEL = 'gauntlet-oracle';

/**
 * The built-in Gauntlet oracle as an episode policy: it reads only the AXTree an agent gets, and
 * gives up (the episode ends as `fail`) when it spends too many actions on one step.
 */
export function gauntletOraclePolicy(): EpisodePolicy {
  return scriptedPolicy(ORACLE_MODEL, () => {
    let step: unknown;
    let onStep = 0;
    return ({ result }) => {
      const info = gauntletInfo(taskInfo(result));
      onStep = info.step === step ? onStep + 1 : 1;
      step = info.step;
      if (onStep > MAX_ACTIONS_PER_STEP)
        throw new PolicyGaveUpError(`stuck on step ${info.step} (${info.type}) after ${MAX_ACTIONS_PER_STEP} actions`);
      const o = result.observation;
      return gauntletOracle({
        goal: o.goal,
        axtree_txt: o.axtree_txt,
        pruned_html: '',
        url: o.url,
        focused_element_bid: '',
      });
    };
  });
}

/** Plays one episode with the built-in oracle through `env`, recorded (observations in `format`) as any policy's episode is. */
export function runGauntletOracleEpisode(
  env: EpisodeEnv,
  task: string,
  seed: number,
  options: Record<string, unknown> = {},
  format: ObservationFormat = 'axtree',
): Promise<Trajectory> {
  return runEpisode(env, gauntletOraclePolicy(), {
    task,
    seed,
    resetOptions: options,
    render: { format },
    observation: ORACLE_OBSERVATION,
    actionSet: ORACLE_ACTION_SET,
    // The env's own step budget (400 actions for a full run) ends an episode; timing puzzles make a full run minutes long.
    maxTurns: Infinity,
    deadlineMs: 60 * 60_000,
  });
}

/** Steps solved out of the run's total, after the episode. */
export function progress(trajectory: Trajectory): { solved: number; total: number } {
  const first = trajectory.turns[0] ? gauntletInfo(trajectory.turns[0].task_info) : {};
  const last = gauntletInfo(trajectory.final_task_info);
  return { solved: last.solved ?? first.solved ?? 0, total: last.total ?? first.total ?? 1 };
}
