import type { StepResult } from '@gauntlet/proto';
import { rejectedCandidates } from '../solver/decoys.js';
import { gauntletPolicy } from '../solver/policy.js';
import { readView } from '../solver/view.js';
import { EXPERT_ACTION_SET, EXPERT_OBSERVATION, taskInfo, type EnvPort, type GauntletInfo } from './env-port.js';
import { observationText, SYSTEM_PROMPT } from './observation-text.js';
import { episodeKey, type DpoRecord } from './records.js';

/**
 * Preference pairs from a probe run of the seed: at up to `perStep` states of each step the
 * probe plays a plausible wrong action instead of the expert's, keeps the pair only when the env
 * shows it failed (no reward, and a wrong-code flag, a puzzle mistake or an action error), and
 * lets the expert carry on from wherever that left the page.
 */
export async function collectPreferencePairs(env: EnvPort, task: string, seed: number, perStep = 2, maxActions = 600): Promise<DpoRecord[]> {
  let result: StepResult = await env.reset({ task_name: task, seed, observation: EXPERT_OBSERVATION, action_set: EXPERT_ACTION_SET });
  const pairs: DpoRecord[] = [];
  /** Rejected actions already tried, per step and kind: each is tried once, `perStep` puzzle ones and one wrong code per step. */
  const tried = new Map<string, Set<string>>();
  let lastAction = '';
  for (let actions = 0; !result.done && actions < maxActions; actions++) {
    const before = taskInfo(result);
    const oracleView = { goal: result.observation.goal, axtree_txt: result.observation.axtree_txt, pruned_html: '', url: result.observation.url, focused_element_bid: '' };
    const chosen = gauntletPolicy(oracleView);
    const view = readView(result.observation.axtree_txt);
    const step = before.step ?? 0;
    const candidates = view.kind === 'step' ? rejectedCandidates(view) : { kind: 'puzzle' as const, actions: [] };
    const done = tried.get(`${step}/${candidates.kind}`) ?? new Set<string>();
    tried.set(`${step}/${candidates.kind}`, done);
    const budget = candidates.kind === 'code' ? 1 : perStep;
    const rejected = done.size < budget ? candidates.actions.find((a) => a !== chosen && !done.has(a)) : undefined;
    if (rejected) {
      done.add(rejected);
      const prompt = observationText(result, lastAction);
      result = await env.step({ action: { action_str: rejected } });
      const outcome = failure(before, result);
      if (outcome) {
        pairs.push({
          id: `${episodeKey(task, seed)}/step${step}.dpo${pairs.length}`,
          episode: episodeKey(task, seed), task, seed, step, type: before.type ?? '',
          prompt: [{ role: 'system', content: SYSTEM_PROMPT }, { role: 'user', content: prompt }],
          chosen: [{ role: 'assistant', content: chosen }],
          rejected: [{ role: 'assistant', content: rejected }],
          rejected_outcome: outcome,
        });
      }
      lastAction = rejected;
      continue;
    }
    result = await env.step({ action: { action_str: chosen } });
    lastAction = chosen;
  }
  return pairs;
}

/** Why the action counts as failed, or undefined when the env does not show a failure. */
function failure(before: GauntletInfo, after: StepResult): string | undefined {
  const info = taskInfo(after);
  if ((after.reward ?? 0) > 0 || (info.solved ?? 0) > (before.solved ?? 0)) return undefined;
  if (info.wrong_code && (info.wrong_codes ?? 0) > (before.wrong_codes ?? 0)) return 'wrong_code';
  if ((info.puzzle_failures ?? 0) > (before.puzzle_failures ?? 0)) return 'puzzle_mistake';
  if (after.observation.error) return `action_error: ${after.observation.error}`;
  return undefined;
}
