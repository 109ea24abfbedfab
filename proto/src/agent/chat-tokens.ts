import type { CallOptions } from '../client/types.js';
import type { PolicyClient } from '../policy-server/client.js';
import { GauntletError } from '../errors.js';
import type { PromptMessage } from './prompt-message.js';

/** What the template probes need from a policy server: its /tokenize. */
export type Tokenizer = Pick<PolicyClient, 'tokenize'>;

// Stand-in messages for the probes: plain ASCII that merges with no template token.
const PROBE_USER = 'probe';
const PROBE_REPLIES = ['0', '1'];

/**
 * The model's chat template in token space, learnt from the server's own /tokenize (so it is
 * exactly the tokenizer the server samples with, ours or vLLM's): the first prompt, and the env
 * tokens that follow a completion — the turn's close (unless the completion already ended with
 * it) and the next user message up to the generation prompt. Earlier turns are never
 * re-tokenised.
 *
 * Works for templates that render a conversation as a prefix of its continuation (ChatML,
 * Llama 3, Mistral, …); probe() fails with a clear error for one that does not.
 */
export class ChatTokens {
  private constructor(
    private readonly tokenizer: Tokenizer,
    private readonly model: string | undefined,
    /** [probe user, probe assistant] rendered without a generation prompt. */
    private readonly history: readonly number[],
    /** Tokens that close an assistant turn (e.g. `<|im_end|>` `\n`). */
    readonly turnClose: readonly number[],
    /** The server's context length (prompt + completion), as /tokenize reports it. */
    readonly maxModelLen: number,
    private readonly variables: Record<string, unknown> | undefined,
  ) {}

  static async probe(
    tokenizer: Tokenizer,
    model: string | undefined,
    options: CallOptions = {},
    variables?: Record<string, unknown>,
  ): Promise<ChatTokens> {
    let maxModelLen = Infinity;
    const tokens = (messages: PromptMessage[], addGenerationPrompt: boolean) =>
      tokenizer
        .tokenize(
          {
            ...(model === undefined ? {} : { model }),
            messages,
            add_generation_prompt: addGenerationPrompt,
            ...(variables ? { chat_template_kwargs: variables } : {}),
          },
          options,
        )
        .then((r) => {
          maxModelLen = Math.min(maxModelLen, r.max_model_len);
          return r.tokens;
        });
    const [asked, ...answered] = await Promise.all([
      tokens([{ role: 'user', content: PROBE_USER }], true),
      ...PROBE_REPLIES.map((reply) =>
        tokens(
          [
            { role: 'user', content: PROBE_USER },
            { role: 'assistant', content: reply },
          ],
          false,
        ),
      ),
    ]);
    for (const history of answered) {
      if (!startsWith(history!, asked!))
        throw templateError(
          'a conversation ending in an assistant turn does not start with the generation prompt before it',
        );
    }
    // The replies differ only in their content, so what both end with is the turn's close.
    const [a, b] = answered.map((h) => h!.slice(asked!.length));
    let close = 0;
    while (close < Math.min(a!.length, b!.length) - 1 && a![a!.length - 1 - close] === b![b!.length - 1 - close])
      close += 1;
    return new ChatTokens(tokenizer, model, answered[0]!, a!.slice(a!.length - close), maxModelLen, variables);
  }

  /** Turn 0's prompt: system prompt + first observation + generation prompt. */
  async firstPrompt(systemPrompt: string, observation: string, options: CallOptions = {}): Promise<number[]> {
    const reply = await this.tokenizer.tokenize(
      {
        ...this.modelField(),
        messages: [
          { role: 'system', content: systemPrompt },
          { role: 'user', content: observation },
        ],
        add_generation_prompt: true,
        ...this.variablesField(),
      },
      options,
    );
    return reply.tokens;
  }

  /** The env tokens after `completion`: the turn close it lacks, then `observation` as the next user turn and the generation prompt. */
  async envTokens(completion: readonly number[], observation: string, options: CallOptions = {}): Promise<number[]> {
    const messages: PromptMessage[] = [
      { role: 'user', content: PROBE_USER },
      { role: 'assistant', content: PROBE_REPLIES[0]! },
      { role: 'user', content: observation },
    ];
    const { tokens } = await this.tokenizer.tokenize(
      { ...this.modelField(), messages, add_generation_prompt: true, ...this.variablesField() },
      options,
    );
    if (!startsWith(tokens, this.history)) throw templateError('a conversation does not start with its earlier turns');
    const closedByModel = this.turnClose.length > 0 && completion[completion.length - 1] === this.turnClose[0];
    return [...(closedByModel ? this.turnClose.slice(1) : this.turnClose), ...tokens.slice(this.history.length)];
  }

  private modelField() {
    return this.model === undefined ? {} : { model: this.model };
  }

  private variablesField() {
    return this.variables ? { chat_template_kwargs: this.variables } : {};
  }
}

function startsWith(ids: readonly number[], prefix: readonly number[]): boolean {
  return prefix.length <= ids.length && prefix.every((id, i) => ids[i] === id);
}

/** The model's chat template cannot be extended token-exactly: a configuration problem, not worth a retry. */
export class ChatTemplateError extends GauntletError {
  static override readonly httpStatus = 400;
  constructor(message: string) {
    super('VALIDATION_ERROR', message);
  }
}

function templateError(what: string): ChatTemplateError {
  return new ChatTemplateError(
    `the model's chat template cannot be extended token-exactly (${what}); multi-turn rollouts need a template whose renderings extend each other`,
  );
}
