import { ContextBudgetError } from './outcome.js';

export interface TokenHistoryOptions {
  /** Prompt + reply tokens allowed per turn (the model's context, or less). Absent: no budget. */
  contextTokens?: number | undefined;
}

/** One exchange after the head: the policy's completion and the env tokens that followed it. */
interface Exchange {
  completion: readonly number[];
  env: readonly number[];
}

/**
 * The token bookkeeping of one multi-turn episode. Turn k+1's prompt is turn k's prompt ids +
 * its completion ids + the env's ids that follow (turn close, next observation, generation
 * prompt) — concatenated, never re-tokenised, so every sampled logprob stays tied to its token.
 *
 * With a context budget, the oldest exchanges are dropped (system + first user turn are the
 * head and always stay, as does the latest exchange, which carries the current observation) —
 * the Gauntlet reference agent's trimming, in token space. Dropping is monotone, so later turns
 * still extend earlier prompts, and each turn records how many exchanges it left out.
 */
export class TokenHistory {
  private readonly exchanges: Exchange[] = [];
  /** Exchanges dropped from the front of every prompt from now on. */
  private trimmed = 0;
  /** Tokens of the exchanges still kept. */
  private keptTokens = 0;
  private awaitingEnv = false;

  constructor(
    /** Turn 0's prompt: system + first observation + generation prompt. */
    readonly headIds: readonly number[],
    private readonly options: TokenHistoryOptions = {},
  ) {
    if (headIds.length === 0) throw new RangeError('the first prompt has no tokens');
  }

  /** How many exchanges the next prompt leaves out. */
  get trimmedExchanges(): number {
    return this.trimmed;
  }

  /**
   * The next turn's prompt ids, leaving room for `replyTokens` (the request's max_tokens).
   * Throws ContextBudgetError when even the head and the latest exchange do not fit.
   */
  prompt(replyTokens: number): number[] {
    if (this.awaitingEnv)
      throw new Error('TokenHistory: the last completion has no env tokens yet (call addEnv first)');
    const budget = this.options.contextTokens;
    if (budget !== undefined) {
      while (this.headIds.length + this.keptTokens + replyTokens > budget && this.exchanges.length - this.trimmed > 1) {
        const dropped = this.exchanges[this.trimmed]!;
        this.keptTokens -= dropped.completion.length + dropped.env.length;
        this.trimmed += 1;
      }
      const need = this.headIds.length + this.keptTokens + replyTokens;
      if (need > budget) {
        throw new ContextBudgetError(
          `turn ${this.exchanges.length} needs ${need} tokens (prompt ${need - replyTokens} after trimming ${this.trimmed} exchanges, reply ${replyTokens}) but the context budget is ${budget}`,
        );
      }
    }
    const ids = [...this.headIds];
    for (let i = this.trimmed; i < this.exchanges.length; i++) {
      const { completion, env } = this.exchanges[i]!;
      for (const id of completion) ids.push(id);
      for (const id of env) ids.push(id);
    }
    return ids;
  }

  /** Records the policy's sampled ids; the env's ids must follow (addEnv) before the next prompt. */
  addCompletion(ids: readonly number[]): void {
    if (this.awaitingEnv) throw new Error('TokenHistory: two completions in a row (call addEnv between them)');
    this.exchanges.push({ completion: [...ids], env: [] });
    this.keptTokens += ids.length;
    this.awaitingEnv = true;
  }

  /** Records the env's ids that follow the last completion (env_mask = 0). */
  addEnv(ids: readonly number[]): void {
    if (!this.awaitingEnv) throw new Error('TokenHistory: env tokens without a completion before them');
    const last = this.exchanges[this.exchanges.length - 1]!;
    this.exchanges[this.exchanges.length - 1] = { ...last, env: [...ids] };
    this.keptTokens += ids.length;
    this.awaitingEnv = false;
  }
}
