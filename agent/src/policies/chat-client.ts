import type { PromptMessage } from '@gauntlet/proto/agent';
import type { CallOptions } from '@gauntlet/proto/client';
import { ModelAuthError, ModelBusyError, ModelRequestError, ModelUnreachableError } from './model-errors.js';

export interface ChatSettings {
  baseUrl: string;
  apiKey?: string;
  model: string;
  temperature: number;
  topP: number;
  maxTokens: number;
  /** vLLM's `repetition_penalty` (not an OpenAI field: sent only when set). */
  repetitionPenalty?: number;
  /** vLLM's `stop_token_ids`: token ids that end a reply besides the server's own end tokens. */
  stopTokenIds?: number[];
  /** Each HTTP call's limit in ms. */
  callTimeoutMs: number;
  /** Retries after a 429, a 5xx, a timeout or a refused connection. */
  retries: number;
  /** First backoff in ms, doubled each retry (a Retry-After header wins when longer). */
  backoffMs: number;
}

/** What one completion cost, as the server reported it (absent fields: it did not say). */
export interface ChatUsage {
  promptTokens?: number;
  completionTokens?: number;
  /** Any cost field the server returns (e.g. OpenRouter's usage.cost). */
  cost?: number;
}

export interface ChatReply {
  text: string;
  usage: ChatUsage;
  /** HTTP calls made, retries included. */
  calls: number;
  /** The model the server says answered. */
  model: string;
}

/**
 * A plain OpenAI-compatible `/v1/chat/completions` client: text in, text out; no tokenizer, no
 * token ids, no logprobs. Retries 429/5xx/timeouts/refused connections with exponential backoff;
 * a 401/403 or another 4xx fails at once with an error naming the flag to fix.
 */
export class ChatClient {
  constructor(readonly settings: ChatSettings) {}

  get endpoint(): string {
    return `${this.settings.baseUrl.replace(/\/+$/, '').replace(/\/v1$/, '')}/v1/chat/completions`;
  }

  /** `regex`: the reply must match it whole (vLLM's `structured_outputs.regex`). */
  async complete(messages: PromptMessage[], call: CallOptions = {}, regex?: string): Promise<ChatReply> {
    const s = this.settings;
    const body = JSON.stringify({
      model: s.model,
      messages,
      temperature: s.temperature,
      top_p: s.topP,
      max_tokens: s.maxTokens,
      ...(s.repetitionPenalty === undefined ? {} : { repetition_penalty: s.repetitionPenalty }),
      ...(s.stopTokenIds?.length ? { stop_token_ids: s.stopTokenIds } : {}),
      ...(regex === undefined ? {} : { structured_outputs: { regex } }),
    });
    let lastProblem = '';
    let unreachable = false;
    let retryAfterMs = 0;
    for (let attempt = 0; attempt <= s.retries; attempt++) {
      if (attempt > 0) await sleep(Math.max(s.backoffMs * 2 ** (attempt - 1), retryAfterMs), call.signal);
      retryAfterMs = 0;
      const timeout = AbortSignal.timeout(Math.min(s.callTimeoutMs, call.timeoutMs ?? Infinity));
      let response: Response;
      try {
        response = await fetch(this.endpoint, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            ...(s.apiKey ? { authorization: `Bearer ${s.apiKey}` } : {}),
          },
          body,
          signal: call.signal ? AbortSignal.any([call.signal, timeout]) : timeout,
        });
      } catch (error) {
        if (call.signal?.aborted) throw call.signal.reason;
        unreachable = !timeout.aborted;
        lastProblem = timeout.aborted ? `no reply within ${s.callTimeoutMs} ms` : describeFetchError(error);
        continue;
      }
      unreachable = false;
      if (response.ok) return { ...parseReply(await response.json(), s.model), calls: attempt + 1 };
      const detail = (await response.text().catch(() => '')).slice(0, 300);
      if (response.status === 401 || response.status === 403)
        throw new ModelAuthError(
          `--api-key: ${this.endpoint} refused the key (${response.status})${detail ? `: ${detail}` : ''}`,
        );
      if (response.status !== 429 && response.status < 500)
        throw new ModelRequestError(
          `--model/--base-url: ${this.endpoint} refused the request (${response.status})${detail ? `: ${detail}` : ''}`,
        );
      retryAfterMs = Number(response.headers.get('retry-after') ?? 0) * 1000 || 0;
      lastProblem = `HTTP ${response.status}${detail ? `: ${detail}` : ''}`;
    }
    const tries = `${s.retries + 1} tr${s.retries === 0 ? 'y' : 'ies'}`;
    if (unreachable)
      throw new ModelUnreachableError(`--base-url: cannot reach ${this.endpoint} (${lastProblem}; ${tries})`);
    throw new ModelBusyError(`${this.endpoint} failed ${tries}: ${lastProblem}`);
  }
}

function parseReply(json: unknown, requested: string): Omit<ChatReply, 'calls'> {
  const reply = json as {
    model?: string;
    choices?: { message?: { content?: string | null } }[];
    usage?: { prompt_tokens?: number; completion_tokens?: number; cost?: number; total_cost?: number };
  };
  const content = reply.choices?.[0]?.message?.content;
  if (content === undefined)
    throw new ModelRequestError(`--base-url: the reply is not an OpenAI chat completion (no choices[0].message)`);
  const u = reply.usage;
  const usage: ChatUsage = {};
  if (typeof u?.prompt_tokens === 'number') usage.promptTokens = u.prompt_tokens;
  if (typeof u?.completion_tokens === 'number') usage.completionTokens = u.completion_tokens;
  const cost = u?.cost ?? u?.total_cost;
  if (typeof cost === 'number') usage.cost = cost;
  return { text: content ?? '', usage, model: reply.model ?? requested };
}

function describeFetchError(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } })?.cause;
  return cause?.code ?? cause?.message ?? (error as Error)?.message ?? String(error);
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => (clearTimeout(timer), reject(signal.reason)), { once: true });
  });
}
