import type { ServeContext } from './context.js';

/** The request field and the server default (vLLM's --return-tokens-as-token-ids) that name tokens by id. */
export interface LabelRequest {
  return_tokens_as_token_ids?: boolean | null | undefined;
}

/**
 * How logprob lists name tokens: by their text, or, with return_tokens_as_token_ids, as
 * `token_id:N` (vLLM's spelling). Byte tokens that are not whole characters all decode to U+FFFD,
 * so by text they collide as keys of a top-logprobs object and a client cannot tell which was which.
 */
export function tokenLabeler(ctx: ServeContext, request: LabelRequest): (id: number) => string {
  const byId = request.return_tokens_as_token_ids ?? ctx.returnTokensAsTokenIds;
  return byId ? (id) => `token_id:${id}` : (id) => tokenText(ctx, id);
}

/** A token's own text. */
export function tokenText(ctx: ServeContext, id: number): string {
  return ctx.tokenizer.decode([id]);
}

/** As vLLM writes logprobs: at least −9999, so a token a filter ruled out (−∞) stays a JSON number. */
export function wireLogprob(value: number): number {
  return Math.max(value, -9999);
}
