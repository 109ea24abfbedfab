import type { CallOptions } from '../client/types.js';
import { ChatTokens, type Tokenizer } from './chat-tokens.js';

// Probes by policy server (its client) and then by model + template variables. Weak on the
// client: a pool's long-lived clients keep their probes, a dropped client takes its probes along.
const probes = new WeakMap<Tokenizer, Map<string, Promise<ChatTokens>>>();

/**
 * The chat template of `model` on the server behind `tokenizer`, probed once and shared by every
 * policy (and so every episode) on that server and model; a failed probe is forgotten, so the
 * next caller probes again. The shared probe keeps the caller's deadline but not its signal: one
 * episode's cancellation must not fail its neighbours' starts (each caller guards its own wait).
 */
export function chatTokensFor(
  tokenizer: Tokenizer,
  model: string | undefined,
  options: CallOptions = {},
  variables?: Record<string, unknown>,
): Promise<ChatTokens> {
  let byModel = probes.get(tokenizer);
  if (!byModel) probes.set(tokenizer, (byModel = new Map()));
  const key = JSON.stringify([model ?? null, variables ?? null]);
  let probe = byModel.get(key);
  if (!probe) {
    probe = ChatTokens.probe(
      tokenizer,
      model,
      options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs },
      variables,
    );
    byModel.set(key, probe);
    const entry = probe;
    entry.catch(() => byModel.get(key) === entry && byModel.delete(key));
  }
  return probe;
}
