import { ValidationError } from '@gauntlet/proto';
import {
  ACTION_NAMES,
  BID_ARGUMENTS,
  LlmPolicy,
  actionRegex,
  observationBids,
  type EpisodePolicy,
  type TurnInput,
} from '@gauntlet/proto/agent';
import { PolicyClient } from '@gauntlet/proto/policy';
import type { EpisodeSettings, PolicyRef } from '@gauntlet/proto/rollout';
import { randomPolicy } from './random-policy.js';

/** The name that selects the built-in random-click baseline instead of a server. */
export const RANDOM_POLICY = 'random';

export interface PolicyPoolOptions {
  /** vLLM's --api-key. */
  apiKey?: string | undefined;
  /** Deadline of each policy call in ms, retries included (default 120 000). */
  timeoutMs?: number;
}

/** What an episode is played with: the policy, and the server its turns all go to. */
export interface EpisodePolicyChoice {
  policy: EpisodePolicy;
  server: string;
}

/**
 * The policy servers a worker samples from (our `gauntlet-trainer serve` or vLLM), taken in
 * round robin per episode. An episode's turns all go to the server it started on: its growing
 * prompt's KV prefix is cached there. `random` plays the random-click baseline instead.
 */
export class PolicyPool {
  private readonly clients: PolicyClient[];
  /** Clients of servers a job named (policy_urls), made once each with this pool's key and deadline. */
  private readonly named = new Map<string, PolicyClient>();
  private cursor = 0;

  constructor(
    urls: readonly string[],
    private readonly options: PolicyPoolOptions = {},
  ) {
    if (urls.length === 0)
      throw new ValidationError(
        `no policy: give policy server URLs (e.g. http://127.0.0.1:8001) or "${RANDOM_POLICY}"`,
      );
    if (urls.includes(RANDOM_POLICY) && urls.length > 1)
      throw new ValidationError(`"${RANDOM_POLICY}" is a policy of its own; it does not mix with policy server URLs`);
    this.clients = urls.includes(RANDOM_POLICY)
      ? []
      : [...new Set(urls)].map((url) => {
          try {
            return new PolicyClient(url, { apiKey: options.apiKey, timeoutMs: options.timeoutMs ?? 120_000 });
          } catch (error) {
            throw new ValidationError((error as Error).message);
          }
        });
  }

  get servers(): string[] {
    return this.clients.length ? this.clients.map((c) => c.baseUrl) : [RANDOM_POLICY];
  }

  /**
   * The policy for one episode of `policy` with `settings`; the server is the next in turn among
   * the job's policy_urls when it lists them (the trainer's rotation), else among this pool's.
   */
  forEpisode(policy: PolicyRef, settings: EpisodeSettings): EpisodePolicyChoice {
    const sampling = settings.sampling;
    const urls = settings.policy_urls;
    if (!urls?.length && this.clients.length === 0)
      return { policy: randomPolicy(sampling.seed), server: RANDOM_POLICY };
    const client = urls?.length ? this.namedClient(urls[this.cursor++ % urls.length]!) : this.nextClient();
    const llm = new LlmPolicy(client, {
      // A request names the adapter to sample from it; the base model's name means no adapter.
      model: policy.adapter ?? policy.model,
      adapter: policy.adapter,
      version: policy.version,
      maxTokens: sampling.max_tokens,
      temperature: sampling.temperature,
      topP: sampling.top_p,
      topK: sampling.top_k,
      seed: sampling.seed,
      contextTokens: settings.context_tokens,
      ...(settings.constrained ? { regex: replyRegex(settings) } : {}),
    });
    return { policy: llm, server: client.baseUrl };
  }

  private nextClient(): PolicyClient {
    return this.clients[this.cursor++ % this.clients.length]!;
  }

  private namedClient(url: string): PolicyClient {
    let client = this.named.get(url);
    if (!client) {
      client = new PolicyClient(url, {
        apiKey: this.options.apiKey,
        timeoutMs: this.options.timeoutMs ?? 120_000,
      });
      this.named.set(url, client);
    }
    return client;
  }
}

/** The constrained-decoding regex: fixed, or rebuilt each turn from the bids the page shows. */
function replyRegex(settings: EpisodeSettings): string | ((turn: TurnInput) => string) {
  const names = settings.action_names ?? undefined;
  if (!settings.bid_choices) return actionRegex({ ...(names ? { names } : {}) });
  return (turn) => {
    const bids = observationBids(turn.result);
    // A page with no element to name leaves only the actions that need none (noop, at least).
    const allowed = bids.length ? names : (names ?? ACTION_NAMES).filter((n) => !(n in BID_ARGUMENTS));
    return actionRegex({ names: allowed?.length ? allowed : ['noop'], bids });
  };
}
