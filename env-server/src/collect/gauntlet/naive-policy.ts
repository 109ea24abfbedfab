import { scriptedPolicy, type EpisodePolicy } from '@gauntlet/proto/agent';
import { act, type Actionable } from '../../tasks/oracle-helpers/act.js';
import { below } from '../../tasks/oracle-helpers/ax-query.js';
import { readView, type StepView } from '../../tasks/gauntlet/oracle/view.js';

/** How long the naive policy waits once it has pressed everything (then it starts over). */
export const NAIVE_WAIT_MS = 800;
const CLICKABLE = new Set(['button', 'tab', 'checkbox', 'link', 'radio', 'menuitem', 'switch']);
const FIELDS = new Set(['textbox', 'spinbutton', 'searchbox']);
/** What a code looks like to a careless reader: six capitals or digits standing alone. */
const CODE_LIKE = /(?<![A-Za-z0-9])[A-Z0-9]{6}(?![A-Za-z0-9])/g;

/** What the naive policy remembers on one step. */
interface StepMemory {
  step: number;
  tried: Set<string>;
  pressed: Set<string>;
  filled: Set<string>;
}

/**
 * The baseline a benchmark must defeat: it reads no instructions. Each round it submits every
 * code-like string on the page it has not tried, fills every field with one of them, presses
 * every button once, waits, submits the code box, and starts over. A challenge it solves often
 * is one that can be won without reading.
 */
export function naivePolicy(): EpisodePolicy {
  return scriptedPolicy('gauntlet-naive', () => {
    let memory: StepMemory | undefined;
    return ({ result }) => {
      const view = readView(result.observation.axtree_txt);
      if (view.kind === 'locked') {
        const link = view.nodes.find((n) => n.role === 'link' && n.bid !== undefined) as Actionable | undefined;
        return link ? act.click(link) : act.noop(NAIVE_WAIT_MS);
      }
      if (view.kind !== 'step') return act.noop(NAIVE_WAIT_MS);
      if (memory?.step !== view.step)
        memory = { step: view.step, tried: new Set(), pressed: new Set(), filled: new Set() };
      return naiveMove(view, memory);
    };
  });
}

/** One move of the naive round for this step. */
export function naiveMove(view: StepView, memory: StepMemory): string {
  const codes = codeLike(view);
  const untried = codes.find((c) => !memory.tried.has(c));
  if (untried) {
    memory.tried.add(untried);
    return act.chain(act.fill(view.codeBox, untried), act.click(view.submit));
  }
  const any = codes[0] ?? 'A1B2C3';
  for (const [i, node] of view.puzzle.entries()) {
    if (node.bid === undefined || memory.filled.has(keyOf(node))) continue;
    const control = node as Actionable;
    if (FIELDS.has(node.role)) {
      memory.filled.add(keyOf(node));
      return act.fill(control, any);
    }
    if (node.role === 'combobox') {
      memory.filled.add(keyOf(node));
      const option = below(view.puzzle, i).find((o) => o.role === 'option' && o.name && !/…|choose/i.test(o.name));
      if (option) return act.select(control, option.name);
    }
  }
  const next = view.puzzle.find(
    (n): n is Actionable => n.bid !== undefined && CLICKABLE.has(n.role) && !memory.pressed.has(keyOf(n)),
  );
  if (next) {
    memory.pressed.add(keyOf(next));
    return act.click(next);
  }
  // Everything pressed: wait, submit whatever is in the box, and go round again.
  memory.pressed.clear();
  memory.filled.clear();
  return act.chain(act.noop(NAIVE_WAIT_MS), act.click(view.submit));
}

/** Every code-like string the page shows (decoys and the real code alike), in page order. */
function codeLike(view: StepView): string[] {
  const seen = view.nodes
    .filter((n) => n.role !== 'textbox')
    .flatMap((n) => [...n.name.matchAll(CODE_LIKE)].map((m) => m[0]));
  return [...new Set(seen)];
}

const keyOf = (node: { role: string; name: string; bid?: string }) => `${node.role}:${node.name}:${node.bid}`;
