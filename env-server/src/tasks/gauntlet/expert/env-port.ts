import type { StepResult } from '@gauntlet/proto';

/**
 * The two calls an expert rollout needs, bound to one session. The CLI binds them to an
 * in-process EnvService; a remote EnvClient fits the same shape.
 */
export interface EnvPort {
  reset(body: { task_name: string; seed: number; options?: Record<string, unknown>; observation?: object; action_set?: object }): Promise<StepResult>;
  step(body: { action: { action_str: string } }): Promise<StepResult>;
}

/** The task's own facts in a result's metadata (step, type, wrong-code flag, …). */
export function taskInfo(result: StepResult): GauntletInfo {
  return (result.metadata.browsergym_info['task_info'] ?? {}) as GauntletInfo;
}

export interface GauntletInfo {
  step?: number | null;
  total?: number;
  type?: string;
  category?: string;
  solved?: number;
  view?: string;
  wrong_code?: boolean;
  wrong_codes?: number;
  puzzle_failures?: number;
}

/** Env time of one step as the server measured it (action, validation, observation). */
export function envMs(result: StepResult): number {
  const info = result.metadata.browsergym_info;
  return Number(info['action_ms'] ?? 0) + Number(info['validate_ms'] ?? 0) + Number(info['observe_ms'] ?? 0);
}

/** What the expert and the data files observe: the AXTree (what the policy reads) and the URL. */
export const EXPERT_OBSERVATION = { axtree: true, pruned_html: false, extra_properties: false, screenshot: 'none' } as const;

/** Every subset the expert may use (canvas strokes need coordinates). */
export const EXPERT_ACTION_SET = { subsets: ['chat', 'infeas', 'bid', 'coord', 'nav', 'tab'] };
