import { DFA, JS, NFA } from 'refa';
import { ValidationError } from '@gauntlet/proto';
import { escapeRegex } from '@gauntlet/proto/agent';
import { BudgetedFactories, DEFAULT_COMPILE_BUDGET, type CompileBudget } from './compile-budget.js';

/** A compiled automaton as plain data: what a compiler thread hands back (structured-cloneable). */
export interface RegexAutomatonData {
  /** Per state, its transitions as code-unit ranges [min, max] → next state. */
  edges: { min: number; max: number; to: number }[][];
  finals: number[];
  /** Fewest characters from each state to a final state. */
  distance: number[];
}

/**
 * A regex as a minimal DFA over UTF-16 code units (refa), flattened to integer states, with the
 * fewest characters from each state to a match. Full-match semantics, as vLLM's structured outputs.
 * Compiling can take seconds for a large or explosive regex (see compile-budget.ts for how it is
 * bounded), so a server compiles on a thread (compileRegex) and builds the automaton from the data here.
 */
export class RegexAutomaton {
  private readonly edges: { min: number; max: number; to: number }[][];
  readonly finals: Set<number>;
  readonly distance: number[];
  readonly initial = 0;

  constructor(
    readonly source: string,
    data: RegexAutomatonData = compileRegex(source),
  ) {
    this.edges = data.edges;
    this.finals = new Set(data.finals);
    this.distance = data.distance;
  }

  /** The state after reading `text` from `state`, or -1 when no match can follow. */
  walk(state: number, text: string): number {
    let s = state;
    for (let i = 0; i < text.length && s >= 0; i++) {
      const c = text.charCodeAt(i);
      const next = this.edges[s]!.find((e) => e.min <= c && c <= e.max)?.to;
      s = next === undefined || this.distance[next] === Infinity ? -1 : next;
    }
    return s;
  }
}

/**
 * A regex source → its minimal DFA as data, within `budget` (states and time; over it, a
 * ValidationError that says which). `what` names it in errors (a JSON schema's regex is not the
 * caller's text, so it is not quoted back).
 */
export function compileRegex(
  source: string,
  what = `structured_outputs.regex ${quoted(source)}`,
  budget: CompileBudget = DEFAULT_COMPILE_BUDGET,
): RegexAutomatonData {
  const factories = new BudgetedFactories(budget, what);
  let dfa: DFA;
  try {
    // Matches are whole outputs, so edge anchors add nothing; refa builds automata without assertions.
    const body = source.replace(/^\^/, '').replace(/(?<!\\)\$$/, '');
    const { expression, maxCharacter } = JS.Parser.fromLiteral({ source: body, flags: '' }).parse();
    const nfa = NFA.fromRegex(expression, { maxCharacter }, { assertions: 'throw' }, factories.nfa);
    dfa = DFA.fromFA(nfa, factories.dfa);
  } catch (error) {
    if (error instanceof ValidationError) throw error;
    throw new ValidationError(`${what} is not supported: ${(error as Error).message}`);
  }
  dfa.minimize();
  factories.checkClock();
  const ids = new Map<DFA.ReadonlyNode, number>([[dfa.initial, 0]]);
  const order: DFA.ReadonlyNode[] = [dfa.initial];
  for (let i = 0; i < order.length; i++) {
    for (const [, to] of order[i]!.out) {
      if (!ids.has(to)) {
        ids.set(to, order.length);
        order.push(to);
      }
    }
  }
  const finals: number[] = [];
  const edges = order.map((node, i) => {
    if (dfa.finals.has(node as DFA.Node)) finals.push(i);
    return [...node.out].map(([range, to]) => ({ min: range.min, max: range.max, to: ids.get(to)! }));
  });
  const distance = distancesToFinal(edges, finals);
  if (distance[0] === Infinity) throw new ValidationError(`${what} matches nothing`);
  return { edges, finals, distance };
}

function distancesToFinal(edges: RegexAutomatonData['edges'], finals: readonly number[]): number[] {
  const count = edges.length;
  const reverse: number[][] = Array.from({ length: count }, () => []);
  edges.forEach((out, from) => new Set(out.map((e) => e.to)).forEach((to) => reverse[to]!.push(from)));
  const isFinal = new Set(finals);
  const distance = Array.from({ length: count }, (_, i) => (isFinal.has(i) ? 0 : Infinity));
  const queue = [...finals];
  for (let i = 0; i < queue.length; i++) {
    const s = queue[i]!;
    for (const from of reverse[s]!) {
      if (distance[from] === Infinity) {
        distance[from] = distance[s]! + 1;
        queue.push(from);
      }
    }
  }
  return distance;
}

/** A regex quoted in a message, clipped: an error names it, it does not replay a whole pasted regex. */
function quoted(source: string): string {
  return JSON.stringify(source.length > 120 ? `${source.slice(0, 120)}…` : source);
}

/** A regex source that matches exactly one of the given strings (vLLM's `choice`). */
export function choiceRegex(choices: readonly string[]): string {
  return choices.map(escapeRegex).join('|');
}
