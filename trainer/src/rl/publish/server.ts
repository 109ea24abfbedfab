import { PolicyClient } from '@gauntlet/proto/policy-server';
import { ServerVerificationError, type VerificationStage } from './errors.js';
import type { ProbeExpectation } from './probe.js';

export interface ServerTarget {
  /** The server's root URL (a trailing /v1 is accepted). */
  url: string;
  /** vLLM's --api-key, sent as a bearer token. */
  apiKey?: string;
}

/** How far the server's probe log-probs were from the trainer's. */
export interface ProbeComparison {
  maxAbsDiff: number;
  /** The completion token where the difference is largest. */
  at: number;
}

/**
 * The calls publishing makes to one vLLM-compatible server, each under its own deadline. Runtime
 * LoRA loading answers in plain text ("Success: ..."), so load and unload are plain fetches; the
 * listing and the probe go through the shared PolicyClient (reply schemas checked).
 */
export class PublishTarget {
  readonly url: string;
  private readonly client: PolicyClient;

  constructor(
    readonly target: ServerTarget,
    private readonly timeoutMs: number,
  ) {
    this.client = new PolicyClient(target.url, {
      timeoutMs,
      retry: { attempts: 2 },
      ...(target.apiKey ? { apiKey: target.apiKey } : {}),
    });
    this.url = this.client.baseUrl;
  }

  /**
   * Loads a version. A name the server already holds (a version published again after a resume)
   * is unloaded and loaded afresh: vLLM refuses a second load of a name, and load_inplace is not
   * in every vLLM release.
   */
  async load(name: string, path: string): Promise<void> {
    const body = { lora_name: name, lora_path: path };
    try {
      await this.lora('load', 'load_lora_adapter', body, name);
    } catch (error) {
      if (!(error instanceof ServerVerificationError && / 400: .*already been loaded/.test(error.message))) throw error;
      await this.unload(name);
      await this.lora('load', 'load_lora_adapter', body, name);
    }
  }

  async unload(name: string): Promise<void> {
    await this.lora('load', 'unload_lora_adapter', { lora_name: name }, name);
  }

  /** Throws unless GET /v1/models lists the adapter. */
  async assertListed(name: string): Promise<void> {
    const models = await this.step('list', name, () => this.client.models());
    if (!models.data.some((m) => m.id === name))
      throw new ServerVerificationError(
        this.url,
        'list',
        name,
        `/v1/models does not list it (listed: ${models.data.map((m) => m.id).join(', ')})`,
      );
  }

  /**
   * The server's log-probs of the probe completion under the adapter: the probe's tokens as a
   * token-id prompt, echoed with logprobs and one token generated (what stock vLLM and ours both
   * answer), read back at the completion's positions.
   */
  async compareProbe(name: string, probe: ProbeExpectation): Promise<ProbeComparison> {
    const ids = [...probe.promptIds, ...probe.completionIds];
    const reply = await this.step('probe', name, () =>
      this.client.completions({
        model: name,
        prompt: ids,
        max_tokens: 1,
        temperature: 0,
        echo: true,
        logprobs: 0,
      }),
    );
    const got = reply.choices[0]?.logprobs?.token_logprobs;
    const start = probe.promptIds.length;
    if (!got || got.length < ids.length)
      throw new ServerVerificationError(
        this.url,
        'probe',
        name,
        `the echoed prompt has ${got?.length ?? 0} log-probs for ${ids.length} prompt tokens`,
      );
    const comparison: ProbeComparison = { maxAbsDiff: 0, at: 0 };
    probe.logprobs.forEach((want, t) => {
      const value = got[start + t];
      const diff = typeof value === 'number' ? Math.abs(value - want) : Infinity;
      if (!(diff <= comparison.maxAbsDiff)) Object.assign(comparison, { maxAbsDiff: diff, at: t });
    });
    return comparison;
  }

  private async step<T>(stage: VerificationStage, name: string, call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (error) {
      if (error instanceof ServerVerificationError) throw error;
      throw new ServerVerificationError(this.url, stage, name, (error as Error).message);
    }
  }

  private async lora(stage: VerificationStage, route: string, body: object, name: string): Promise<void> {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (this.target.apiKey) headers.authorization = `Bearer ${this.target.apiKey}`;
    let response: Response;
    let text: string;
    try {
      response = await fetch(`${this.url}/v1/${route}`, {
        method: 'POST',
        headers,
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      text = await response.text();
    } catch (error) {
      const timedOut = (error as Error).name === 'TimeoutError';
      const cause = (error as { cause?: { code?: string } }).cause?.code;
      throw new ServerVerificationError(
        this.url,
        stage,
        name,
        timedOut
          ? `${route} got no reply within ${this.timeoutMs} ms`
          : `${route} failed: ${cause ?? (error as Error).message}`,
      );
    }
    if (!response.ok)
      throw new ServerVerificationError(
        this.url,
        stage,
        name,
        `${route} answered ${response.status}: ${clip(errorText(text))}`,
      );
  }
}

function errorText(text: string): string {
  try {
    const body = JSON.parse(text) as { error?: { message?: unknown }; message?: unknown };
    const message = body.error?.message ?? body.message;
    if (typeof message === 'string') return message;
  } catch {
    // Plain text (vLLM's load replies are plain text).
  }
  return text;
}

function clip(text: string, max = 300): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat || '(empty body)';
}
