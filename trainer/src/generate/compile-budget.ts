import { DFA, NFA } from 'refa';
import { ValidationError } from '@gauntlet/proto';

/**
 * What compiling one structured-output regex may spend. Building a DFA from an NFA costs about
 * (NFA states × DFA states): `(((a|b){0,20}){0,20}){0,20}c` stays under refa's 10,000-state cap
 * in both and still took 75 s, so states alone do not bound the time and the clock is checked too.
 */
export interface CompileBudget {
  /** States the NFA, and separately the DFA, may have. */
  maxStates: number;
  /** Milliseconds the whole compilation may take. */
  maxMs: number;
}

/**
 * The clock is wall time, so its default is generous: on 2 cores at load 17 the action grammar
 * with a page's bids (compiled every turn under --bid-choices) took 1–4 s, and a budget a loaded
 * machine cannot meet would refuse the very requests rollouts make. Still far under the
 * preparation threads' 30 s per call, and the pathological regexes are stopped.
 */
export const DEFAULT_COMPILE_BUDGET: CompileBudget = { maxStates: 10_000, maxMs: 15_000 };

/**
 * Node factories that count states and look at the clock on every new state, so a compilation is
 * stopped as soon as it is over budget instead of after it finishes. refa creates states all
 * through the construction, a few milliseconds apart at worst, so the clock is seen often enough.
 */
export class BudgetedFactories {
  private readonly deadline: number;

  constructor(
    private readonly budget: CompileBudget,
    private readonly what: string,
  ) {
    this.deadline = performance.now() + budget.maxMs;
  }

  readonly nfa = this.factory<NFA.Node>('NFA', () => NFA.nodeFactory.createNode());
  readonly dfa = this.factory<DFA.Node>('DFA', () => DFA.nodeFactory.createNode());

  /** Checks the clock between phases that make no states (minimization). */
  checkClock(): void {
    if (performance.now() <= this.deadline) return;
    throw new ValidationError(
      `${this.what} takes longer than ${this.budget.maxMs} ms to compile (this server's --max-regex-compile-ms); simplify it (nested or long bounded repeats such as (a{0,20}){0,20} are the usual cause)`,
    );
  }

  private factory<S>(kind: string, make: () => S): { createNode(): S } {
    let made = 0;
    return {
      createNode: () => {
        made += 1;
        if (made > this.budget.maxStates)
          throw new ValidationError(
            `${this.what} needs more than ${this.budget.maxStates} ${kind} states (this server's --max-regex-states); simplify it (long bounded repeats and alternations inside repeats multiply states)`,
          );
        this.checkClock();
        return make();
      },
    };
  }
}
