import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { completionRequest, type CompletionRequest } from '@gauntlet/proto/policy-server';
import type { TokenLogprob } from '../generate/sampler.js';
import type { GenerationResult } from '../generate/sequence.js';
import type { ServeContext } from './context.js';
import { EventStream, disconnectSignal, sendJson } from './http-io.js';
import { parseBody } from './parse.js';
import { structuredSpecOf } from './structured-spec.js';
import { runChoices, usageOf } from './run-choices.js';
import { checkLimits, toSamplingParams } from './sampling.js';
import { tokenLabeler, tokenText, wireLogprob } from './token-labels.js';

/** POST /v1/completions, vLLM's shape: token-id prompts, echo, logprobs, return_token_ids, n, SSE. */
export async function completions(
  ctx: ServeContext,
  body: unknown,
  _req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const request = parseBody(completionRequest, body, 'completion');
  const prompts = await promptTokens(ctx, request.prompt);
  // vLLM's echo without generation: one token is drawn (the prompt is scored by the same pass) and dropped.
  const echoOnly = request.echo === true && request.max_tokens === 0;
  const shown = (results: GenerationResult[]) => (echoOnly ? results.map(promptOnly) : results);
  const params = toSamplingParams(echoOnly ? { ...request, max_tokens: 1 } : request, {
    maxTokens: 16,
    topLogprobs: request.logprobs ?? 0,
  });
  const n = request.n ?? 1;
  checkLimits(ctx, prompts, params, n);
  const adapterFeeds = ctx.adapters.resolve(request.model);
  const constraint = await ctx.constraints(structuredSpecOf(request));
  const wantLogprobs = request.logprobs !== undefined && request.logprobs !== null;
  const label = tokenLabeler(ctx, request);
  const head = {
    id: `cmpl-${randomUUID()}`,
    object: 'text_completion',
    created: Math.floor(Date.now() / 1000),
    model: request.model ?? ctx.adapters.baseName,
  };
  const signal = disconnectSignal(res);
  const job = { prompts, n, params, adapterFeeds, constraint, promptLogprobs: promptScoring(request), signal };
  if (!request.stream) {
    const results = shown(await runChoices(ctx, job));
    const choices = results.map((r, i) => choice(ctx, request, r, i, label));
    sendJson(res, 200, { ...head, choices, usage: usageOf(prompts, results) });
    return;
  }
  const stream = new EventStream(res);
  // Submitted before the first frame: a refusal still gets its status instead of an SSE error.
  const running = runChoices(ctx, {
    ...job,
    onToken: echoOnly
      ? undefined
      : (index, { token, textDelta }) => {
          const logprobs = wantLogprobs
            ? {
                tokens: [label(token.id)],
                token_logprobs: [wireLogprob(token.logprob)],
                top_logprobs: [topDict(label, token.top)],
                text_offset: [0],
              }
            : null;
          stream.send({
            ...head,
            choices: [
              {
                index,
                text: textDelta,
                logprobs,
                finish_reason: null,
                ...(request.return_token_ids ? { token_ids: [token.id] } : {}),
              },
            ],
          });
        },
  });
  if (request.echo)
    prompts.forEach((p, k) =>
      Array.from({ length: n }, (_, i) =>
        stream.send({
          ...head,
          choices: [{ index: k * n + i, text: ctx.tokenizer.decode(p), logprobs: null, finish_reason: null }],
        }),
      ),
    );
  const results = shown(await running);
  results.forEach((r, index) =>
    stream.send({
      ...head,
      choices: [{ index, text: '', logprobs: null, finish_reason: r.finishReason, stop_reason: r.stopReason ?? null }],
    }),
  );
  if (request.stream_options?.include_usage) stream.send({ ...head, choices: [], usage: usageOf(prompts, results) });
  stream.end();
}

/** A result as echo without generation shows it: the prompt only, nothing sampled. */
function promptOnly(r: GenerationResult): GenerationResult {
  return { ...r, tokenIds: [], logprobs: [], topLogprobs: [], text: '', finishReason: 'length', stopReason: undefined };
}

/** The prompt(s) as token ids: text encoded (off the event loop when large), id lists as given. */
async function promptTokens(ctx: ServeContext, prompt: CompletionRequest['prompt']): Promise<number[][]> {
  if (typeof prompt !== 'string' && prompt.every((p) => typeof p === 'number')) return [prompt as number[]];
  const parts = typeof prompt === 'string' ? [prompt] : (prompt as (string | number[])[]);
  const texts = parts.filter((p): p is string => typeof p === 'string');
  const encoded = await ctx.prompts.encode(texts, { addSpecialTokens: false, bound: { param: 'prompt' } });
  let next = 0;
  return parts.map((p) => (typeof p === 'string' ? encoded[next++]! : p));
}

function choice(
  ctx: ServeContext,
  request: CompletionRequest,
  r: GenerationResult,
  index: number,
  label: (id: number) => string,
) {
  const promptText = request.echo ? ctx.tokenizer.decode(r.promptTokenIds) : '';
  return {
    index,
    text: promptText + r.text,
    logprobs:
      request.logprobs === undefined || request.logprobs === null
        ? null
        : logprobsBlock(ctx, r, Boolean(request.echo), request.logprobs, label),
    finish_reason: r.finishReason,
    stop_reason: r.stopReason ?? null,
    ...(request.return_token_ids ? { token_ids: r.tokenIds, prompt_token_ids: r.promptTokenIds } : {}),
    ...(request.prompt_logprobs !== undefined && request.prompt_logprobs !== null
      ? { prompt_logprobs: promptLogprobsBlock(ctx, r, request.prompt_logprobs) }
      : {}),
  };
}

/** Top alternatives to score each prompt position with: echo + logprobs and prompt_logprobs share one scoring pass. */
function promptScoring(request: CompletionRequest): number | undefined {
  const forEcho =
    request.echo && request.logprobs !== undefined && request.logprobs !== null ? request.logprobs : undefined;
  const forPrompt = request.prompt_logprobs ?? undefined;
  return forEcho === undefined && forPrompt === undefined ? undefined : Math.max(forEcho ?? 0, forPrompt ?? 0);
}

/** vLLM's prompt_logprobs: null for the first token, then {token id: {logprob, rank, decoded_token}} with the prompt token and its top k. */
function promptLogprobsBlock(ctx: ServeContext, r: GenerationResult, k: number) {
  return (r.promptLogprobs ?? []).map((p) => {
    if (!p) return null;
    const entries = [
      { id: p.id, logprob: p.logprob, rank: p.rank },
      ...p.top.slice(0, k).map((t, i) => ({ ...t, rank: i + 1 })),
    ];
    return Object.fromEntries(
      entries.map((e) => [
        String(e.id),
        { logprob: wireLogprob(e.logprob), rank: e.rank, decoded_token: tokenText(ctx, e.id) },
      ]),
    );
  });
}

/** The legacy completions logprobs block: per token its name, logprob, top alternatives and character offset in the text. */
function logprobsBlock(
  ctx: ServeContext,
  r: GenerationResult,
  echo: boolean,
  k: number,
  label: (id: number) => string,
) {
  const ids = echo ? [...r.promptTokenIds, ...r.tokenIds] : r.tokenIds;
  const lps: (number | null)[] = echo
    ? [...(r.promptLogprobs ?? []).map((p) => p?.logprob ?? null), ...r.logprobs]
    : r.logprobs;
  const tops = echo
    ? [
        ...(r.promptLogprobs ?? []).map((p) => (p ? topDict(label, p.top.slice(0, k)) : null)),
        ...r.topLogprobs.map((t) => topDict(label, t)),
      ]
    : r.topLogprobs.map((t) => topDict(label, t));
  const offsets: number[] = [];
  ids.reduce((at, id) => (offsets.push(at), at + tokenText(ctx, id).length), 0);
  return {
    tokens: ids.map(label),
    token_logprobs: lps.map((lp) => (lp === null ? null : wireLogprob(lp))),
    top_logprobs: tops,
    text_offset: offsets,
  };
}

function topDict(label: (id: number) => string, top: readonly TokenLogprob[]): Record<string, number> {
  return Object.fromEntries(top.map((t) => [label(t.id), wireLogprob(t.logprob)]));
}
