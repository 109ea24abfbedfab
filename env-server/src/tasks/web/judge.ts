import { createContext, runInContext } from 'node:vm';
import { GOAL_SPEC_KEYS, type WebTaskOptions } from '@gauntlet/proto';

/**
 * JavaScript regexes backtrack, and a goal spec's regex comes from the wire: each match runs in
 * its own VM context under this budget (V8 interrupts a runaway match), so a pathological one
 * fails its check instead of holding the server.
 */
export const MATCH_BUDGET_MS = 250;
/** The page text a `success_text` regex is searched in: the first characters of the body's innerText. */
export const MAX_PAGE_TEXT_CHARS = 1_000_000;

export type GoalCheck = (typeof GOAL_SPEC_KEYS)[number];

/** What the final page and answer are checked against; no key = the episode is unjudged. */
export type GoalSpec = Partial<Record<GoalCheck, string>>;

export interface Final {
  url: string;
  /** Read only when the spec has `success_text`. */
  text: () => Promise<string>;
  /** The send_msg_to_user message; null when the agent reported infeasible instead. */
  answer: string | null;
}

export interface Verdict {
  success: boolean;
  /** Each check of the spec and whether it held. */
  checks: Partial<Record<GoalCheck, boolean>>;
  /** Why it failed, in words ('' on success). */
  reason: string;
}

export function goalSpecOf(options: WebTaskOptions): GoalSpec {
  const spec: GoalSpec = {};
  for (const key of GOAL_SPEC_KEYS) if (options[key] !== undefined) spec[key] = options[key];
  return spec;
}

/** Checks every regex of `spec` (all must hold); an infeasible report never succeeds. */
export async function judge(spec: GoalSpec, final: Final): Promise<Verdict> {
  const checks: Verdict['checks'] = {};
  const why: string[] = [];
  const check = (key: GoalCheck, subject: string | null, what: string) => {
    const source = spec[key];
    if (source === undefined) return;
    const found = subject === null ? false : search(source, subject);
    checks[key] = found === true;
    if (found === 'over_budget') why.push(`${key} ran past its ${MATCH_BUDGET_MS} ms budget on ${what}`);
    else if (!found) why.push(`${key} does not match ${what}`);
  };
  check('success_url', final.url, 'the final URL');
  if (spec.success_text !== undefined) check('success_text', await final.text(), "the final page's text");
  check('answer', final.answer, final.answer === null ? 'an answer (none was sent)' : 'the answer');
  if (final.answer === null) why.unshift('the agent reported the goal infeasible');
  return { success: why.length === 0, checks, reason: why.join('; ') };
}

/** Whether `source` finds a match in `subject`, or 'over_budget' when matching took too long. */
export function search(source: string, subject: string, budgetMs = MATCH_BUDGET_MS): boolean | 'over_budget' {
  const sandbox = createContext({ source, subject });
  try {
    return runInContext('new RegExp(source).test(subject)', sandbox, { timeout: budgetMs }) === true;
  } catch (error) {
    if ((error as { code?: string }).code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') return 'over_budget';
    throw error;
  }
}
