import { DFA, JS, NFA } from 'refa';
import { ValidationError } from '@gauntlet/proto';

/**
 * A regex as a minimal DFA over UTF-16 code units (refa), flattened to integer states, with the
 * fewest characters from each state to a match. Full-match semantics, as vLLM's structured outputs.
 */
export class RegexAutomaton {
  /** Per state, its transitions as code-unit ranges [min, max] → next state. */
  private readonly edges: { min: number; max: number; to: number }[][] = [];
  readonly finals = new Set<number>();
  /** Fewest characters from each state to a final state. */
  readonly distance: number[] = [];
  readonly initial = 0;

  constructor(readonly source: string) {
    let dfa: DFA;
    try {
      // Matches are whole outputs, so edge anchors add nothing; refa builds automata without assertions.
      const body = source.replace(/^\^/, '').replace(/(?<!\\)\$$/, '');
      const { expression, maxCharacter } = JS.Parser.fromLiteral({ source: body, flags: '' }).parse();
      dfa = DFA.fromFA(NFA.fromRegex(expression, { maxCharacter }, { assertions: 'throw' }));
    } catch (error) {
      throw new ValidationError(`structured_outputs.regex ${JSON.stringify(source)} is not supported: ${(error as Error).message}`);
    }
    dfa.minimize();
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
    order.forEach((node, i) => {
      if (dfa.finals.has(node as DFA.Node)) this.finals.add(i);
      this.edges.push([...node.out].map(([range, to]) => ({ min: range.min, max: range.max, to: ids.get(to)! })));
    });
    this.computeDistances(order.length);
    if (this.distance[0] === Infinity) throw new ValidationError(`structured_outputs.regex ${JSON.stringify(source)} matches nothing`);
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

  private computeDistances(count: number): void {
    const reverse: number[][] = Array.from({ length: count }, () => []);
    this.edges.forEach((out, from) => new Set(out.map((e) => e.to)).forEach((to) => reverse[to]!.push(from)));
    for (let i = 0; i < count; i++) this.distance.push(this.finals.has(i) ? 0 : Infinity);
    const queue = [...this.finals];
    for (let i = 0; i < queue.length; i++) {
      const s = queue[i]!;
      for (const from of reverse[s]!) {
        if (this.distance[from] === Infinity) {
          this.distance[from] = this.distance[s]! + 1;
          queue.push(from);
        }
      }
    }
  }
}

/** A regex source that matches exactly one of the given strings (vLLM's `choice`). */
export function choiceRegex(choices: readonly string[]): string {
  return choices.map(escapeRegex).join('|');
}

/** `text` as a regex source matching exactly itself. */
export function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}
