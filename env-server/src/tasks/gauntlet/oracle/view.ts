import { OracleError } from '../../oracle-helpers/action-text.js';
import { parseAxtree, type AxNode } from '../../oracle-helpers/axtree-lines.js';
import type { ChallengeType } from '../categories.js';
import { CODE_PATTERN } from '../codes.js';
import { identifyPuzzle } from './identify.js';
import type { Actionable } from '../../oracle-helpers/act.js';
import { find, must, region, textOf } from '../../oracle-helpers/ax-query.js';

/** One Gauntlet step as the oracle reads it from the AXTree text (its type recognised from the puzzle). */
export interface StepView {
  kind: 'step';
  nodes: AxNode[];
  step: number;
  total: number;
  type: ChallengeType;
  instructions: string;
  /** The "Puzzle status" line (progress and feedback). */
  status: string;
  /** Everything inside the "Puzzle" region. */
  puzzle: AxNode[];
  /** The code in a "Revealed code" region, when one is on the page. */
  revealed: string | undefined;
  codeBox: Actionable;
  submit: Actionable;
  /** A wrong-code alert is showing. */
  wrongAlert: boolean;
}

/** Pages that are not a step: a locked direct URL, the finished run, or no run at all. */
export interface OtherView {
  kind: 'locked' | 'done' | 'empty';
  nodes: AxNode[];
}

const HEADING = /^Step (\d+) of (\d+): /;

export function readView(axtree: string): StepView | OtherView {
  const nodes = parseAxtree(axtree);
  const heading = nodes.find((n) => n.role === 'heading' && HEADING.test(n.name));
  if (!heading) {
    const titles = nodes
      .filter((n) => n.role === 'heading')
      .map((n) => n.name)
      .join(' | ');
    if (/cannot be opened directly/.test(titles)) return { kind: 'locked', nodes };
    if (/steps solved/.test(titles)) return { kind: 'done', nodes };
    return { kind: 'empty', nodes };
  }
  const [, step, total] = HEADING.exec(heading.name)!;
  const instructions = textOf(region(nodes, 'region', 'Instructions') ?? []);
  const puzzle = region(nodes, 'region', 'Puzzle') ?? [];
  const type = identifyPuzzle(instructions, puzzle);
  if (!type) throw new OracleError(`no known puzzle matches these instructions: ${instructions.slice(0, 120)}`);
  const codeForm = must(region(nodes, 'form', 'Code entry'), 'form "Code entry"');
  const revealedText = textOf(region(nodes, 'region', 'Revealed code') ?? []);
  return {
    kind: 'step',
    nodes,
    step: Number(step),
    total: Number(total),
    type,
    instructions,
    status: textOf(region(nodes, 'status', 'Puzzle status') ?? []),
    puzzle,
    revealed: revealedText
      .split('\n')
      .map((t) => t.trim())
      .find((t) => CODE_PATTERN.test(t)),
    codeBox: must(find(codeForm, 'textbox', 'Code'), 'textbox "Code"'),
    submit: must(find(codeForm, 'button', 'Submit code'), 'button "Submit code"'),
    wrongAlert: nodes.some((n) => n.role === 'alert'),
  };
}
