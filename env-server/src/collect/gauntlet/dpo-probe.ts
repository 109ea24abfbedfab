import { GAUNTLET_SYSTEM_PROMPT, runEpisode, scriptedPolicy, taskInfo, type EpisodeEnv } from '@gauntlet/proto/agent';
import type { DpoRecord, ObservationFormat, RecordMessage, StepResult } from '@gauntlet/proto';
import { rejectedCandidates } from '../../tasks/gauntlet/oracle/decoys.js';
import { gauntletOracle } from '../../tasks/gauntlet/oracle/policy.js';
import { readView } from '../../tasks/gauntlet/oracle/view.js';
import { ORACLE_ACTION_SET, ORACLE_OBSERVATION, gauntletInfo, type GauntletInfo } from './env-port.js';
import { episodeKey } from '../records.js';
import { progress, ORACLE_MODEL } from './rollout.js';

/** A wrong action just played, waiting for the env's verdict. */
interface Probe {
  before: GauntletInfo;
  prompt: RecordMessage[];
  chosen: string;
  rejected: string;
}

export interface ProbeOptions {
  /** Puzzle-stage wrong actions tried per step (and as many wrong codes). */
  perStep?: number;
  maxActions?: number;
  /** Reset options of the episode (the full run's start_step). */
  resetOptions?: Record<string, unknown>;
  /** How the prompts' observations are rendered (default axtree). */
  format?: ObservationFormat;
}

/** The probe episode's pairs and how far it got (it must still solve the run: wrong moves never strand it). */
export interface ProbeResult {
  pairs: DpoRecord[];
  solved: number;
  total: number;
  outcome: string;
}

/**
 * Preference pairs from a probe run of the seed: at up to `perStep` states of each step the
 * probe plays a plausible wrong action instead of the oracle's, keeps the pair only when the env
 * shows it failed (no reward, and a wrong-code flag, a puzzle mistake or an action error), and
 * lets the oracle carry on from wherever that left the page. Prompts hold the step's history
 * so far, as the SFT records do; a state where the oracle would only wait gives no pair.
 */
export async function collectPreferencePairs(
  env: EpisodeEnv,
  task: string,
  seed: number,
  { perStep = 2, maxActions = 600, resetOptions = {}, format = 'axtree' }: ProbeOptions = {},
): Promise<ProbeResult> {
  const startStep = typeof resetOptions['start_step'] === 'number' ? resetOptions['start_step'] : 1;
  const key = episodeKey(task, seed, startStep);
  const pairs: DpoRecord[] = [];
  /** Rejected actions already tried, per step and kind. */
  const tried = new Map<string, Set<string>>();
  /** This step's exchanges so far (what an SFT record of the step holds before this turn). */
  let history: RecordMessage[] = [];
  let historyStep: number | null | undefined;
  let probe: Probe | undefined;
  const prober = scriptedPolicy(`${ORACLE_MODEL}-probe`, () => ({ result, observation }) => {
    const before = gauntletInfo(taskInfo(result));
    if (before.step !== historyStep) {
      history = [];
      historyStep = before.step;
    }
    const prompt: RecordMessage[] = [
      { role: 'system', content: GAUNTLET_SYSTEM_PROMPT },
      ...history,
      { role: 'user', content: observation },
    ];
    const chosen = gauntletOracle({
      goal: result.observation.goal,
      axtree_txt: result.observation.axtree_txt,
      pruned_html: '',
      url: result.observation.url,
      focused_element_bid: '',
    });
    const played = pickRejected(result, chosen, before, tried, perStep) ?? chosen;
    if (played !== chosen) probe = { before, prompt, chosen, rejected: played };
    history.push({ role: 'user', content: observation }, { role: 'assistant', content: played });
    return played;
  });
  // The env's verdict on a wrong action is the reply to it: judge the probe there.
  const judge = (after: StepResult) => {
    if (!probe) return;
    const { before, prompt, chosen, rejected } = probe;
    probe = undefined;
    const outcome = failure(before, after);
    if (!outcome) return;
    const step = before.step ?? 0;
    pairs.push({
      id: `${key}/step${step}.dpo${pairs.length}`,
      episode: key,
      task,
      seed,
      step,
      type: before.type ?? '',
      prompt,
      chosen: [{ role: 'assistant', content: chosen }],
      rejected: [{ role: 'assistant', content: rejected }],
      rejected_outcome: outcome,
    });
  };
  const trajectory = await runEpisode(env, prober, {
    task,
    seed,
    resetOptions,
    render: { format },
    observation: ORACLE_OBSERVATION,
    actionSet: ORACLE_ACTION_SET,
    maxTurns: maxActions,
    deadlineMs: 60 * 60_000,
    onResult: judge,
  });
  return { pairs, ...progress(trajectory), outcome: trajectory.outcome };
}

/** A wrong action not yet tried at this step, or undefined to play the oracle's own. */
function pickRejected(
  result: StepResult,
  chosen: string,
  before: GauntletInfo,
  tried: Map<string, Set<string>>,
  perStep: number,
): string | undefined {
  // Waiting is not a choice worth preferring: a pair needs a chosen action that makes progress.
  if (/^noop\(/.test(chosen)) return undefined;
  const view = readView(result.observation.axtree_txt);
  if (view.kind !== 'step') return undefined;
  const candidates = rejectedCandidates(view);
  const key = `${before.step ?? 0}/${candidates.kind}`;
  const done = tried.get(key) ?? new Set<string>();
  tried.set(key, done);
  if (done.size >= perStep) return undefined;
  const rejected = candidates.actions.find((a) => a !== chosen && !done.has(a));
  if (rejected) done.add(rejected);
  return rejected;
}

/** Why the action counts as failed, or undefined when the env does not show a failure. */
function failure(before: GauntletInfo, after: StepResult): string | undefined {
  const info = gauntletInfo(taskInfo(after));
  if ((after.reward ?? 0) > 0 || (info.solved ?? 0) > (before.solved ?? 0)) return undefined;
  if (info.wrong_code && (info.wrong_codes ?? 0) > (before.wrong_codes ?? 0)) return 'wrong_code';
  if ((info.puzzle_failures ?? 0) > (before.puzzle_failures ?? 0)) return 'puzzle_mistake';
  if (after.observation.error) return `action_error: ${after.observation.error}`;
  return undefined;
}
