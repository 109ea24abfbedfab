import type { StepResult } from '@gauntlet/proto';
import { gauntletPolicy } from '../solver/policy.js';
import { envMs, EXPERT_ACTION_SET, EXPERT_OBSERVATION, taskInfo, type EnvPort } from './env-port.js';
import { observationText } from './observation-text.js';

/** One decision of the expert: what it saw, what it did, what came of it. */
export interface Turn {
  /** Gauntlet step and type on screen when the action was chosen. */
  step: number;
  type: string;
  observation: string;
  action: string;
  reward: number;
  error: string;
  wallMs: number;
  envMs: number;
}

export interface EpisodeRecord {
  task: string;
  seed: number;
  total: number;
  solved: number;
  success: boolean;
  /** How it ended: done (all solved), truncated (budget), or an error message. */
  outcome: 'done' | 'truncated' | 'error';
  error?: string;
  turns: Turn[];
  wallMs: number;
}

/** Actions an expert may spend on one step before the rollout gives up on it (the env's budget still applies). */
const MAX_ACTIONS_PER_STEP = 60;

/**
 * Plays one episode with the built-in expert through `env` (reset, then observe → act → step),
 * recording every turn in the agent's own format.
 */
export async function runExpertEpisode(env: EnvPort, task: string, seed: number, options: Record<string, unknown> = {}): Promise<EpisodeRecord> {
  const started = performance.now();
  let result: StepResult = await env.reset({ task_name: task, seed, options, observation: EXPERT_OBSERVATION, action_set: EXPERT_ACTION_SET });
  const record: EpisodeRecord = { task, seed, total: taskInfo(result).total ?? 1, solved: taskInfo(result).solved ?? 0, success: false, outcome: 'done', turns: [], wallMs: 0 };
  let lastAction = '';
  let onStep = 0;
  try {
    while (!result.done) {
      const info = taskInfo(result);
      const observation = observationText(result, lastAction);
      const action = gauntletPolicy({ goal: result.observation.goal, axtree_txt: result.observation.axtree_txt, pruned_html: '', url: result.observation.url, focused_element_bid: '' });
      const t0 = performance.now();
      result = await env.step({ action: { action_str: action } });
      record.turns.push({ step: info.step ?? 0, type: info.type ?? '', observation, action, reward: result.reward ?? 0, error: result.observation.error, wallMs: performance.now() - t0, envMs: envMs(result) });
      lastAction = action;
      onStep = taskInfo(result).step === info.step ? onStep + 1 : 0;
      if (onStep > MAX_ACTIONS_PER_STEP) throw new Error(`stuck on step ${info.step} (${info.type}) after ${onStep} actions`);
    }
    record.outcome = result.metadata.browsergym_info['truncated'] ? 'truncated' : 'done';
  } catch (error) {
    record.outcome = 'error';
    record.error = (error as Error).message;
  }
  record.solved = Math.max(record.solved, taskInfo(result).solved ?? 0);
  record.success = record.outcome === 'done' && record.solved === record.total;
  record.wallMs = performance.now() - started;
  return record;
}
