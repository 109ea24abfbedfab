import type { StepResult } from '../wire/observation.js';
import type { ObservationFormat } from '../wire/observation-format.js';
import { withDemonstration, type DemonstrationView } from './demonstration.js';
import { pruneTree } from './prune-tree.js';

export interface RenderOptions {
  /** `axtree` (default): the tree as the env sent it; `pruned`: interactive elements and nearby text (pruneTree). */
  format?: ObservationFormat;
  /** The action that led here ('' before the first one). */
  lastAction?: string;
  /** Most characters for the whole text. */
  maxChars?: number | null | undefined;
  /** Most tokens for the whole text, as `countTokens` counts them. */
  maxTokens?: number | null | undefined;
  /** Token counter for maxTokens; default: UTF-8 bytes / 4, rounded up (a rough BPE estimate). */
  countTokens?: (text: string) => number;
  /** A demonstration of the task written into every observation (outside the budgets above). */
  demonstration?: DemonstrationView | undefined;
}

const approximateTokens = (text: string): number => Math.ceil(Buffer.byteLength(text, 'utf8') / 4);

/**
 * One observation as the user turn of a conversation, in BrowserGym's usual sections: goal,
 * current page, last action (with the env's error), accessibility tree. The oracle's SFT data
 * and rollouts render through this one function, so they read (and tokenise) the same.
 *
 * The `pruned` format keeps only what a policy acts on (see pruneTree); either way, over a budget, the accessibility tree is cut (whole lines, from the bottom) and says how much
 * was left out; the goal and the last error are never cut.
 */
export function renderObservation(result: StepResult, options: RenderOptions = {}): string {
  const text = renderPlain(result, options);
  return options.demonstration ? withDemonstration(text, options.demonstration) : text;
}

function renderPlain(result: StepResult, options: RenderOptions): string {
  const o = result.observation;
  const error = o.metadata.browsergym_obs.last_action_error;
  const head = [
    `# Goal\n${o.goal}`,
    `# Current page\n${o.url}`,
    `# Last action\n${options.lastAction || '(none)'}${error ? `\nError: ${error}` : ''}`,
  ].join('\n\n');
  const tree = options.format === 'pruned' ? pruneTree(o.axtree_txt, { goal: o.goal }) : o.axtree_txt;
  const whole = `${head}\n\n# Accessibility tree\n${tree}`;
  const cost = costOf(options);
  if (!cost || cost.of(whole) <= cost.budget) return whole;
  return `${head}\n\n# Accessibility tree\n${cutTree(tree, cost.budget - cost.of(`${head}\n\n# Accessibility tree\n`), cost.of)}`;
}

function costOf(options: RenderOptions): { budget: number; of: (text: string) => number } | undefined {
  if (options.maxChars !== undefined && options.maxChars !== null)
    return { budget: options.maxChars, of: (text) => text.length };
  if (options.maxTokens !== undefined && options.maxTokens !== null)
    return { budget: options.maxTokens, of: options.countTokens ?? approximateTokens };
  return undefined;
}

/** The tree's first lines that fit `budget` (each line costed once, so this stays linear), then a note of what was cut. */
function cutTree(tree: string, budget: number, of: (text: string) => number): string {
  const lines = tree.split('\n');
  const note = (cut: number) => `… (${cut} more line${cut === 1 ? '' : 's'} of the tree not shown)`;
  const room = budget - of(note(lines.length));
  let used = 0;
  let kept = 0;
  while (kept < lines.length) {
    const next = of(`${lines[kept]}\n`);
    if (used + next > room) break;
    used += next;
    kept += 1;
  }
  return [...lines.slice(0, kept), note(lines.length - kept)].join('\n');
}
