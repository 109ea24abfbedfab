import type { OracleView, TaskDefinition } from '../tasks/task.js';

/**
 * The task oracle's next action for the observation just built, for sessions reset with
 * `observation.oracle_action`: null when the episode is over or the oracle cannot tell (it
 * throws: a real MiniWoB++ page without a scripted counterpart, a page it does not recognise),
 * with the oracle's reason beside it.
 */
export function oracleHint(
  task: Pick<TaskDefinition, 'oracle'>,
  view: OracleView,
  done: boolean,
): { oracle_action: string | null; oracle_error?: string } {
  if (done) return { oracle_action: null };
  try {
    return { oracle_action: task.oracle(view) };
  } catch (error) {
    return { oracle_action: null, oracle_error: (error as Error)?.message ?? String(error) };
  }
}
