/** Who chose a turn's action. */
export type Actor = 'oracle' | 'model';

/** What the agent knows about one turn beyond the trajectory: who acted and what the model cost. */
export interface TurnLog {
  actor: Actor;
  /** Why the oracle did not act (hybrid turns the model took over). */
  oracleSilence?: string;
  modelCalls: number;
  tokensIn: number;
  tokensOut: number;
  /** Whether tokens are the server's usage (true) or estimates from text length (false). */
  usageReported: boolean;
  cost?: number;
  /** Exchanges left out of the prompt to fit --context-tokens. */
  trimmedExchanges: number;
}

/** Turn logs of one episode, by turn index. */
export type EpisodeLog = TurnLog[];
