import type { HostTensor } from '../engine/host-tensor.js';
import type { TokenConstraint } from '../generate/constraint.js';
import type { SamplingParams } from '../generate/sampling-params.js';
import type { GenerationResult, TokenEvent } from '../generate/sequence.js';
import type { ServeContext } from './context.js';
import { seedFor } from './sampling.js';

export interface ChoiceJob {
  prompts: readonly (readonly number[])[];
  n: number;
  params: SamplingParams;
  adapterFeeds: Record<string, HostTensor>;
  constraint?: (() => TokenConstraint) | undefined;
  promptLogprobs?: boolean;
  signal?: AbortSignal;
  /** Streaming: each token as it is drawn, with its choice index (prompt-major). */
  onToken?: (choice: number, event: TokenEvent) => void;
}

/** Runs n samples of every prompt on the engine; results in choice order (prompt 0's n, then prompt 1's, …). */
export function runChoices(ctx: ServeContext, job: ChoiceJob): Promise<GenerationResult[]> {
  const all = job.prompts.flatMap((prompt, p) =>
    Array.from({ length: job.n }, (_, i) => {
      const choice = p * job.n + i;
      return ctx.engine.generate({
        prompt,
        params: seedFor(job.params, i),
        adapterFeeds: job.adapterFeeds,
        constraint: job.constraint?.(),
        promptLogprobs: job.promptLogprobs,
        signal: job.signal,
        onToken: job.onToken ? (event) => job.onToken!(choice, event) : undefined,
      });
    }),
  );
  return Promise.all(all);
}

/** usage as OpenAI reports it: prompt tokens counted once per prompt, completions summed. */
export function usageOf(prompts: readonly (readonly number[])[], results: readonly GenerationResult[]) {
  const promptTokens = prompts.reduce((n, p) => n + p.length, 0);
  const completionTokens = results.reduce((n, r) => n + r.tokenIds.length, 0);
  return { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens };
}
