import type { CallOptions } from '../client/types.js';
import { ValidationError } from '../errors.js';
import type { PolicyClient } from '../policy-server/client.js';
import { PolicyReplyError } from '../policy-server/errors.js';
import { TokenHistory } from '../rollout/token-history.js';
import type { ChatTokens } from './chat-tokens.js';
import type { EpisodePolicy, EpisodeStart, PolicyReply, PolicySession, TurnInput } from './policy.js';
import { chatTokensFor } from './template-cache.js';

export interface LlmPolicyOptions {
  /** The served name to sample from: the base model or a LoRA adapter. Absent: the server's default. */
  model?: string;
  /** Provenance recorded on every turn: the adapter and the training step of its weights. */
  adapter?: string | null;
  version?: number | null;
  maxTokens: number;
  temperature?: number;
  topP?: number;
  topK?: number;
  /** Turn k samples with seed + k; absent: unseeded. */
  seed?: number | null;
  /** Prompt + reply tokens allowed per turn; older exchanges are trimmed to fit. Never more than the server's max_model_len. */
  contextTokens?: number | null;
  /** Constrain every reply to this regex (e.g. actionRegex()), or to one made from each turn's observation. */
  regex?: string | ((turn: TurnInput) => string);
  stop?: string[];
  /** chat_template_kwargs for every render (e.g. {enable_thinking: false}). */
  templateVariables?: Record<string, unknown>;
}

/**
 * An LLM behind a vLLM-compatible server, played token-exactly: the first prompt and each
 * observation's tokens come from the server's /tokenize, each turn samples from the previous
 * prompt + completion + env tokens (TokenHistory), and every turn records the sampled ids,
 * their logprobs and the model that answered. An episode's turns all go to this one server.
 */
export class LlmPolicy implements EpisodePolicy {
  constructor(
    readonly client: PolicyClient,
    readonly options: LlmPolicyOptions,
  ) {}

  async start(episode: EpisodeStart, options: CallOptions): Promise<PolicySession> {
    // Probed once per server and model, not per episode (a worker makes a policy per episode).
    const template = await chatTokensFor(this.client, this.options.model, options, this.options.templateVariables);
    // A reply as long as the model's context leaves no room for any prompt: the job is wrong (never a scored timeout).
    if (this.options.maxTokens >= template.maxModelLen)
      throw new ValidationError(
        `sampling.max_tokens ${this.options.maxTokens} must be below the model's context of ${template.maxModelLen} tokens (max_model_len of ${this.client.baseUrl})`,
      );
    const head = await template.firstPrompt(episode.systemPrompt, episode.observation, options);
    // Over the server's context, a request would be refused (4xx): trimming (then `timeout`) is the episode's answer instead.
    const contextTokens = Math.min(this.options.contextTokens ?? Infinity, template.maxModelLen);
    return new LlmSession(
      this.client,
      this.options,
      template,
      new TokenHistory(head, { contextTokens: Number.isFinite(contextTokens) ? contextTokens : undefined }),
    );
  }
}

class LlmSession implements PolicySession {
  private lastCompletion: readonly number[] = [];

  constructor(
    private readonly client: PolicyClient,
    private readonly options: LlmPolicyOptions,
    private readonly template: ChatTokens,
    private readonly tokens: TokenHistory,
  ) {}

  get promptIds(): readonly number[] {
    return this.tokens.headIds;
  }

  async act(turn: TurnInput, call: CallOptions): Promise<PolicyReply> {
    const o = this.options;
    const promptIds = this.tokens.prompt(o.maxTokens);
    const generation = await this.client.generate(
      {
        model: o.model,
        promptIds,
        maxTokens: o.maxTokens,
        temperature: o.temperature ?? 1,
        topP: o.topP ?? 1,
        topK: o.topK ?? -1,
        seed: o.seed === undefined || o.seed === null ? undefined : o.seed + turn.index,
        regex: typeof o.regex === 'function' ? o.regex(turn) : o.regex,
        stop: o.stop ?? [],
      },
      call,
    );
    // A server that answers with another model (an adapter it failed to load, a base it fell back
    // to) must not be trained on as if it were the requested version: the episode is retried elsewhere.
    if (o.model !== undefined && generation.model !== o.model)
      throw new PolicyReplyError(
        `the policy server ${this.client.baseUrl} answered as model ${JSON.stringify(generation.model)}, not the requested ${JSON.stringify(o.model)}`,
      );
    this.tokens.addCompletion(generation.tokenIds);
    this.lastCompletion = generation.tokenIds;
    return {
      text: generation.text,
      completionIds: generation.tokenIds,
      logprobs: generation.logprobs,
      trimmedExchanges: this.tokens.trimmedExchanges,
      policy: { model: generation.model, adapter: o.adapter ?? null, version: o.version ?? null },
    };
  }

  async observe(observation: string, call: CallOptions): Promise<number[]> {
    const ids = await this.template.envTokens(this.lastCompletion, observation, call);
    this.tokens.addEnv(ids);
    return ids;
  }
}
