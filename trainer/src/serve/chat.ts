import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { chatRequest } from '@gauntlet/proto/policy-server';
import type { TokenLogprob } from '../generate/sampler.js';
import type { GenerationResult } from '../generate/sequence.js';
import type { ServeContext } from './context.js';
import { EventStream, disconnectSignal, sendJson } from './http-io.js';
import { parseBody } from './parse.js';
import { structuredSpecOf } from './structured-spec.js';
import { runChoices, usageOf } from './run-choices.js';
import { checkLimits, toSamplingParams } from './sampling.js';
import { tokenLabeler, tokenText, wireLogprob } from './token-labels.js';

/** POST /v1/chat/completions: the tokenizer's chat template, logprobs.content, token_ids, SSE chunks. */
export async function chatCompletions(
  ctx: ServeContext,
  body: unknown,
  _req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const request = parseBody(chatRequest, body, 'chat completion');
  const prompt = await ctx.prompts.chat(request.messages, {
    addGenerationPrompt: request.add_generation_prompt ?? true,
    variables: request.chat_template_kwargs ?? {},
    bound: { param: 'messages' },
  });
  // Unset, a chat reply may run to the end of the context (vLLM), within this server's max_tokens.
  const maxTokens =
    request.max_completion_tokens ??
    request.max_tokens ??
    Math.max(1, Math.min(ctx.limits.maxModelLen - prompt.length, ctx.limits.maxTokens));
  const params = toSamplingParams(
    { ...request, max_tokens: maxTokens },
    { maxTokens, topLogprobs: request.logprobs ? (request.top_logprobs ?? 0) : 0 },
  );
  const n = request.n ?? 1;
  checkLimits(ctx, [prompt], params, n);
  const label = tokenLabeler(ctx, request);
  const head = {
    id: `chatcmpl-${randomUUID()}`,
    created: Math.floor(Date.now() / 1000),
    model: request.model ?? ctx.adapters.baseName,
  };
  const job = {
    prompts: [prompt],
    n,
    params,
    adapterFeeds: ctx.adapters.resolve(request.model),
    constraint: await ctx.constraints(structuredSpecOf(request)),
    signal: disconnectSignal(res),
  };
  if (!request.stream) {
    const results = await runChoices(ctx, job);
    const choices = results.map((r, index) => ({
      index,
      message: { role: 'assistant', content: r.text },
      logprobs: request.logprobs
        ? { content: contentLogprobs(ctx, label, r.tokenIds, r.logprobs, r.topLogprobs) }
        : null,
      finish_reason: r.finishReason,
      stop_reason: r.stopReason ?? null,
      ...(request.return_token_ids ? { token_ids: r.tokenIds } : {}),
    }));
    sendJson(res, 200, {
      ...head,
      object: 'chat.completion',
      choices,
      usage: usageOf([prompt], results),
      ...(request.return_token_ids ? { prompt_token_ids: prompt } : {}),
    });
    return;
  }
  const stream = new EventStream(res);
  const chunk = (choices: unknown[], extra: object = {}) =>
    stream.send({ ...head, object: 'chat.completion.chunk', choices, ...extra });
  // Submitted before the first frame: a refusal still gets its status instead of an SSE error.
  const running = runChoices(ctx, {
    ...job,
    onToken: (index, { token, textDelta }) => {
      const logprobs = request.logprobs
        ? { content: contentLogprobs(ctx, label, [token.id], [token.logprob], [token.top]) }
        : null;
      chunk([
        {
          index,
          delta: { content: textDelta },
          logprobs,
          finish_reason: null,
          ...(request.return_token_ids ? { token_ids: [token.id] } : {}),
        },
      ]);
    },
  });
  for (let index = 0; index < n; index++)
    chunk([{ index, delta: { role: 'assistant', content: '' }, logprobs: null, finish_reason: null }]);
  const results = await running;
  results.forEach((r: GenerationResult, index) =>
    chunk([{ index, delta: {}, logprobs: null, finish_reason: r.finishReason }]),
  );
  if (request.stream_options?.include_usage) chunk([], { usage: usageOf([prompt], results) });
  stream.end();
}

/** OpenAI's logprobs.content: per token its name, logprob, the UTF-8 bytes of its text and top alternatives. */
function contentLogprobs(
  ctx: ServeContext,
  label: (id: number) => string,
  ids: readonly number[],
  logprobs: readonly number[],
  tops: readonly (readonly TokenLogprob[])[],
) {
  const entry = (id: number, logprob: number) => ({
    token: label(id),
    logprob: wireLogprob(logprob),
    bytes: [...Buffer.from(tokenText(ctx, id), 'utf8')],
  });
  return ids.map((id, i) => ({
    ...entry(id, logprobs[i]!),
    top_logprobs: (tops[i] ?? []).map((t) => entry(t.id, t.logprob)),
  }));
}
