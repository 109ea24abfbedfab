import type { IncomingMessage, ServerResponse } from 'node:http';
import { generationKwargs, trlGenerateRequest } from '@gauntlet/proto/policy-server';
import type { ServeContext } from './context.js';
import { disconnectSignal, sendJson } from './http-io.js';
import { parseBody } from './parse.js';
import { runChoices } from './run-choices.js';
import { checkLimits, toSamplingParams, type WireSampling } from './sampling.js';
import { wireLogprob } from './token-labels.js';

/**
 * TRL's `trl vllm-serve` POST /generate/: completions grouped per prompt (n each), per token a
 * list of logprobs with their token ids — the sampled token first, then the top alternatives.
 * generation_kwargs are vLLM SamplingParams fields (seed, stop, …) and override the named ones.
 */
export async function trlGenerate(
  ctx: ServeContext,
  body: unknown,
  _req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const request = parseBody(trlGenerateRequest, body, '/generate/');
  const texts = request.prompts.filter((p): p is string => typeof p === 'string');
  const encoded = texts.length
    ? await ctx.prompts.encode(texts, { addSpecialTokens: false, bound: { param: 'prompts' } })
    : [];
  const prompts = texts.length ? encoded : (request.prompts as number[][]);
  const kwargs = parseBody(generationKwargs, request.generation_kwargs ?? {}, '/generate/', ['generation_kwargs']);
  const wire: WireSampling & { logprobs?: number | null | undefined } = { ...request, ...kwargs };
  const topK = wire.logprobs ?? 0;
  // One extra alternative, so k remain once the sampled token is taken out of the list.
  const params = toSamplingParams(wire, { maxTokens: 16, topLogprobs: topK > 0 ? topK + 1 : 0 });
  const n = request.n ?? 1;
  checkLimits(ctx, prompts, params, n);
  const constraint = await ctx.constraints({
    regex: request.structured_outputs_regex ?? request.guided_decoding_regex,
  });
  const results = await runChoices(ctx, {
    prompts,
    n,
    params,
    adapterFeeds: ctx.adapters.baseFeeds,
    constraint,
    signal: disconnectSignal(res),
  });
  const perToken = results.map((r) =>
    r.tokenIds.map((id, t) =>
      [{ id, logprob: r.logprobs[t]! }, ...r.topLogprobs[t]!.filter((a) => a.id !== id)].slice(0, topK + 1),
    ),
  );
  sendJson(res, 200, {
    prompt_ids: prompts,
    completion_ids: results.map((r) => r.tokenIds),
    logprobs: perToken.map((seq) => seq.map((tok) => tok.map((a) => wireLogprob(a.logprob)))),
    logprob_token_ids: perToken.map((seq) => seq.map((tok) => tok.map((a) => a.id))),
  });
}
