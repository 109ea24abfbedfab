import { GAUNTLET_SYSTEM_PROMPT, runEpisode, scriptedPolicy, taskInfo, type EpisodeEnv } from '@gauntlet/proto/agent';
import type { StepResult } from '@gauntlet/proto';
import { rejectedCandidates } from '../solver/decoys.js';
import { gauntletPolicy } from '../solver/policy.js';
import { readView } from '../solver/view.js';
import { EXPERT_ACTION_SET, EXPERT_OBSERVATION, gauntletInfo, type GauntletInfo } from './env-port.js';
import { episodeKey, type DpoRecord } from './records.js';
import { EXPERT_MODEL } from './rollout.js';

/** A wrong action just played, waiting for the env's verdict. */
interface Probe {
  before: GauntletInfo;
  observation: string;
  chosen: string;
  rejected: string;
}

/**
 * Preference pairs from a probe run of the seed: at up to `perStep` states of each step the
 * probe plays a plausible wrong action instead of the expert's, keeps the pair only when the env
 * shows it failed (no reward, and a wrong-code flag, a puzzle mistake or an action error), and
 * lets the expert carry on from wherever that left the page.
 */
export async function collectPreferencePairs(
  env: EpisodeEnv,
  task: string,
  seed: number,
  perStep = 2,
  maxActions = 600,
): Promise<DpoRecord[]> {
  const pairs: DpoRecord[] = [];
  /** Rejected actions already tried, per step and kind: each is tried once, `perStep` puzzle ones and one wrong code per step. */
  const tried = new Map<string, Set<string>>();
  let probe: Probe | undefined;
  const prober = scriptedPolicy(`${EXPERT_MODEL}-probe`, () => ({ result, observation }) => {
    const before = gauntletInfo(taskInfo(result));
    const chosen = gauntletPolicy({
      goal: result.observation.goal,
      axtree_txt: result.observation.axtree_txt,
      pruned_html: '',
      url: result.observation.url,
      focused_element_bid: '',
    });
    const view = readView(result.observation.axtree_txt);
    const candidates = view.kind === 'step' ? rejectedCandidates(view) : { kind: 'puzzle' as const, actions: [] };
    const key = `${before.step ?? 0}/${candidates.kind}`;
    const done = tried.get(key) ?? new Set<string>();
    tried.set(key, done);
    const budget = candidates.kind === 'code' ? 1 : perStep;
    const rejected = done.size < budget ? candidates.actions.find((a) => a !== chosen && !done.has(a)) : undefined;
    if (!rejected) return chosen;
    done.add(rejected);
    probe = { before, observation, chosen, rejected };
    return rejected;
  });
  // The env's verdict on a wrong action is the reply to it: judge the probe there.
  const judge = (after: StepResult) => {
    if (!probe) return;
    const { before, observation, chosen, rejected } = probe;
    probe = undefined;
    const outcome = failure(before, after);
    if (!outcome) return;
    const step = before.step ?? 0;
    pairs.push({
      id: `${episodeKey(task, seed)}/step${step}.dpo${pairs.length}`,
      episode: episodeKey(task, seed),
      task,
      seed,
      step,
      type: before.type ?? '',
      prompt: [
        { role: 'system', content: GAUNTLET_SYSTEM_PROMPT },
        { role: 'user', content: observation },
      ],
      chosen: [{ role: 'assistant', content: chosen }],
      rejected: [{ role: 'assistant', content: rejected }],
      rejected_outcome: outcome,
    });
  };
  await runEpisode(env, prober, {
    task,
    seed,
    observation: EXPERT_OBSERVATION,
    actionSet: EXPERT_ACTION_SET,
    maxTurns: maxActions,
    deadlineMs: 60 * 60_000,
    onResult: judge,
  });
  return pairs;
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
