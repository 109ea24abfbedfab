import { AGENT_OBSERVATION } from '@gauntlet/proto/agent';

/** The Gauntlet's own facts in a reply's task_info (step, type, steps solved, wrong-code flag, …). */
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

/** task_info as recorded on a trajectory turn (or read off a reply by runEpisode's taskInfo). */
export function gauntletInfo(info: Record<string, unknown>): GauntletInfo {
  return info as GauntletInfo;
}

/** What the oracle and the data files observe: the AXTree (what the policy reads) and the URL. */
export const ORACLE_OBSERVATION = AGENT_OBSERVATION;

/** Every subset the oracle may use (canvas strokes need coordinates); its replies may hold several lines. */
export const ORACLE_ACTION_SET = { subsets: ['chat', 'infeas', 'bid', 'coord', 'nav', 'tab'], multi_action: true };
