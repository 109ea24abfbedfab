import { OracleError } from '../../oracle-helpers/action-text.js';
import { parseAxtree } from '../../oracle-helpers/axtree-lines.js';
import { CODE_PATTERN } from '../codes.js';
import { identifyPuzzle } from './identify.js';
import type { OtherView, StepView } from './step-view.js';
import { find, must, region, textOf } from '../../oracle-helpers/ax-query.js';

export type { OtherView, StepView } from './step-view.js';

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
