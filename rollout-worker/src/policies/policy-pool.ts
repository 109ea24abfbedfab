import { ValidationError } from '@gauntlet/proto';
import { LlmPolicy, actionRegex, turnRegex, type EpisodePolicy, type TurnInput } from '@gauntlet/proto/agent';
import { PolicyClient } from '@gauntlet/proto/policy-server';
import {
  MAX_POLICY_SERVERS,
  parsePolicyServer,
  type EpisodeSettings,
  type PolicyRef,
  type PolicyServerRef,
} from '@gauntlet/proto/rollout';
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
  /** The model names that server lists now (absent for the random baseline). */
  served?: () => Promise<string[]>;
}

/**
 * The policy servers a worker samples from (our `gauntlet-trainer serve` or vLLM), taken in
 * round robin per episode. An episode's turns all go to the server it started on: its growing
 * prompt's KV prefix is cached there. `random` plays the random-click baseline instead.
 *
 * Servers come from the operator only (`NAME=URL` or a bare URL, named by its host:port): a job
 * may narrow them by name or index (policy_servers) but never add one, since each gets the API key.
 */
export class PolicyPool {
  private readonly named: { name: string; client: PolicyClient }[];
  private cursor = 0;

  constructor(specs: readonly string[], options: PolicyPoolOptions = {}) {
    if (specs.length === 0)
      throw new ValidationError(
        `no policy: give policy server URLs (e.g. http://127.0.0.1:8001) or "${RANDOM_POLICY}"`,
      );
    if (specs.includes(RANDOM_POLICY) && specs.length > 1)
      throw new ValidationError(`"${RANDOM_POLICY}" is a policy of its own; it does not mix with policy server URLs`);
    if (specs.length > MAX_POLICY_SERVERS)
      throw new ValidationError(`at most ${MAX_POLICY_SERVERS} policy servers per worker (got ${specs.length})`);
    this.named = [];
    if (specs.includes(RANDOM_POLICY)) return;
    for (const spec of new Set(specs)) {
      const { name, url } = parsePolicyServer(spec);
      if (this.named.some((s) => s.name === name))
        throw new ValidationError(`two policy servers are named ${JSON.stringify(name)}: name them (NAME=URL)`);
      try {
        const client = new PolicyClient(url, { apiKey: options.apiKey, timeoutMs: options.timeoutMs ?? 120_000 });
        this.named.push({ name, client });
      } catch (error) {
        throw new ValidationError((error as Error).message);
      }
    }
  }

  get servers(): string[] {
    return this.named.length ? this.named.map((s) => s.client.baseUrl) : [RANDOM_POLICY];
  }

  /** `name=url` of every server, as jobs may name them. */
  get names(): string[] {
    return this.named.map((s) => `${s.name}=${s.client.baseUrl}`);
  }

  /**
   * The policy for one episode of `policy` with `settings`; the server is the next in turn among
   * the job's policy_servers when it names them (the trainer's rotation), else among all of this
   * pool's. Throws UnknownPolicyServerError (a bad job) when the job names a server this worker lacks.
   */
  forEpisode(policy: PolicyRef, settings: EpisodeSettings): EpisodePolicyChoice {
    const sampling = settings.sampling;
    const allowed = settings.policy_servers ? settings.policy_servers.map((ref) => this.resolve(ref)) : this.named;
    if (allowed.length === 0) return { policy: randomPolicy(sampling.seed), server: RANDOM_POLICY };
    const { client } = allowed[this.cursor++ % allowed.length]!;
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
    return {
      policy: llm,
      server: client.baseUrl,
      served: async () => (await client.models()).data.map((card) => card.id),
    };
  }

  private resolve(ref: PolicyServerRef): { name: string; client: PolicyClient } {
    const found = typeof ref === 'number' ? this.named[ref] : this.named.find((s) => s.name === ref);
    if (found) return found;
    const known = this.named.length
      ? `it has ${this.named.map((s, i) => `${i}: ${s.name}`).join(', ')}`
      : `it plays the ${RANDOM_POLICY} baseline and has none`;
    throw new UnknownPolicyServerError(
      `settings.policy_servers names ${JSON.stringify(ref)}, which is not one of this worker's policy servers (${known}); a job may only name servers the worker was started with (--policy)`,
    );
  }
}

/** A job named a policy server the worker was not configured with: the job is wrong, never retried. */
export class UnknownPolicyServerError extends ValidationError {}

/** The constrained-decoding regex: fixed, or rebuilt each turn from the page's bids and the goal's quoted values. */
export function replyRegex(settings: EpisodeSettings): string | ((turn: TurnInput) => string) {
  const names = settings.action_names ?? undefined;
  if (!settings.bid_choices && !settings.text_choices) return actionRegex({ ...(names ? { names } : {}) });
  const options = { ...(names ? { names } : {}), bidChoices: settings.bid_choices, textChoices: settings.text_choices };
  return (turn) => turnRegex(turn.result, options);
}
