import type { HostTensor } from '../engine/host-tensor.js';
import type { TokenConstraint } from '../generate/constraint.js';
import type { SamplingParams } from '../generate/sampling-params.js';
import type { GenerationResult, TokenEvent } from '../generate/sequence.js';
import type { ServeContext } from './context.js';
import { BadRequestError } from './http-errors.js';
import { seedFor } from './sampling.js';

export interface ChoiceJob {
  prompts: readonly (readonly number[])[];
  n: number;
  params: SamplingParams;
  adapterFeeds: Record<string, HostTensor>;
  constraint?: (() => TokenConstraint) | undefined;
  /** Score the prompt with this many top alternatives per position. */
  promptLogprobs?: number | undefined;
  signal?: AbortSignal;
  /** Streaming: each token as it is drawn, with its choice index (prompt-major). */
  onToken?: (choice: number, event: TokenEvent) => void;
}

/**
 * Runs n samples of every prompt on the engine; results in choice order (prompt 0's n, then
 * prompt 1's, …). All or nothing: refused whole when the queue cannot take every sequence, and
 * when one sequence fails the others stop instead of generating for an answer nobody gets.
 * Refusals (a structured output longer than max_tokens, a full queue) throw synchronously, so a
 * streamed reply can still answer them with a status.
 */
export function runChoices(ctx: ServeContext, job: ChoiceJob): Promise<GenerationResult[]> {
  const needed = job.constraint?.().minTokens ?? 0;
  if (needed > job.params.maxTokens)
    throw new BadRequestError(
      `the structured output needs at least ${needed} tokens but max_tokens is ${job.params.maxTokens}`,
      'max_tokens',
    );
  ctx.engine.assertRoom(job.prompts.length * job.n);
  const siblingFailed = new AbortController();
  const signal = job.signal ? AbortSignal.any([job.signal, siblingFailed.signal]) : siblingFailed.signal;
  const all = job.prompts.flatMap((prompt, p) =>
    Array.from({ length: job.n }, (_, i) => {
      const choice = p * job.n + i;
      return ctx.engine.generate({
        prompt,
        params: seedFor(job.params, i),
        adapterFeeds: job.adapterFeeds,
        constraint: job.constraint?.(),
        promptLogprobs: job.promptLogprobs,
        signal,
        onToken: job.onToken ? (event) => job.onToken!(choice, event) : undefined,
      });
    }),
  );
  return Promise.all(
    all.map((run) =>
      run.catch((error: unknown) => {
        siblingFailed.abort();
        throw error;
      }),
    ),
  );
}

/**
 * usage as OpenAI reports it: prompt tokens counted once per prompt, completions summed. Cached
 * tokens (vLLM's prompt_tokens_details) likewise count each prompt once, from its first choice.
 */
export function usageOf(prompts: readonly (readonly number[])[], results: readonly GenerationResult[]) {
  const promptTokens = prompts.reduce((n, p) => n + p.length, 0);
  const completionTokens = results.reduce((n, r) => n + r.tokenIds.length, 0);
  const perPrompt = results.length / Math.max(1, prompts.length);
  const cachedTokens = prompts.reduce((n, _, i) => n + (results[i * perPrompt]?.cachedTokens ?? 0), 0);
  return {
    prompt_tokens: promptTokens,
    completion_tokens: completionTokens,
    total_tokens: promptTokens + completionTokens,
    prompt_tokens_details: { cached_tokens: cachedTokens },
  };
}
