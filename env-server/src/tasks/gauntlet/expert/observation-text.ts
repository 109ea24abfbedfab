import type { StepResult } from '@gauntlet/proto';

/** The system prompt of every exported conversation: the task and the action language used. */
export const SYSTEM_PROMPT = `You are a web agent playing the Gauntlet, a sequence of browser puzzles. Each step's puzzle reveals a 6-character code (letters A-Z and digits); type it into the "Code" box and press "Submit code" to advance.

You see the page as an accessibility tree: each element is "[bid] role 'name'", indented under its parent. Reply with BrowserGym actions only, one per line (several lines run in order):
click(bid), hover(bid), fill(bid, text), select_option(bid, option), press(bid, key), drag_and_drop(from_bid, to_bid),
scroll(dx, dy), mouse_move(x, y), mouse_down(x, y), mouse_up(x, y), noop(wait_ms), go_back(), goto(url).
Bids are strings, e.g. click('12'). Use noop(ms) to wait for timed puzzles.`;

/** One observation as the user turn of a conversation (BrowserGym's usual sections). */
export function observationText(result: StepResult, lastAction: string): string {
  const o = result.observation;
  const error = o.metadata.browsergym_obs.last_action_error;
  return [
    `# Goal\n${o.goal}`,
    `# Current page\n${o.url}`,
    `# Last action\n${lastAction || '(none)'}${error ? `\nError: ${error}` : ''}`,
    `# Accessibility tree\n${o.axtree_txt}`,
  ].join('\n\n');
}
