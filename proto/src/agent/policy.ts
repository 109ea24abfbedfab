import type { CallOptions } from '../client/types.js';
import type { PolicyRef } from '../rollout/trajectory.js';
import type { StepResult } from '../wire/observation.js';

/** What a policy learns when an episode starts. */
export interface EpisodeStart {
  task: string;
  seed: number;
  episodeId: string;
  systemPrompt: string;
  /** The first observation, rendered (the first user message). */
  observation: string;
  /** The reset's reply, for policies that read the page itself (scripted oracles). */
  result: StepResult;
}

/** One turn's input: the rendered observation and the env's reply it came from. */
export interface TurnInput {
  index: number;
  observation: string;
  result: StepResult;
}

/** A policy's reply to one turn. A scripted policy has no tokens (empty lists). */
export interface PolicyReply {
  text: string;
  /** An action the policy vouches for, sent as is; absent: the action is parsed from `text`. */
  action?: string;
  completionIds: number[];
  /** The sampler's logprob of each completion token. */
  logprobs: number[];
  /** Oldest exchanges left out of this turn's prompt to fit the context. */
  trimmedExchanges: number;
  policy: PolicyRef;
}

/** One episode's policy state (an LLM's token history and server; an oracle's counters). */
export interface PolicySession {
  /** Turn 0's prompt ids (system + first observation + generation prompt); empty without tokens. */
  readonly promptIds: readonly number[];
  act(turn: TurnInput, options: CallOptions): Promise<PolicyReply>;
  /**
   * The env answered and the episode goes on with `observation` as the next user message:
   * returns the env tokens that now follow the last completion (env_mask = 0).
   */
  observe(observation: string, options: CallOptions): Promise<number[]>;
}

/**
 * Anything that plays episodes: a scripted oracle (observation in, action text out) or an LLM
 * behind a PolicyClient with token-exact bookkeeping. runEpisode drives either.
 */
export interface EpisodePolicy {
  start(episode: EpisodeStart, options: CallOptions): Promise<PolicySession>;
}
