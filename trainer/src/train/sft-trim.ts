import type { TemplateMessage } from '../model/chat-template.js';

/** A conversation and which of its messages are trained (parallel arrays, as SftLine holds them). */
export interface Conversation {
  messages: TemplateMessage[];
  trained: boolean[];
}

export interface TrimmedConversation extends Conversation {
  /** Exchanges (a user turn and the replies after it) left out, oldest first. */
  droppedExchanges: number;
}

/**
 * Splits a conversation into the parts trimming may not touch and the exchanges it may drop.
 * An exchange starts at a user turn and runs to the next one. Kept whole:
 *  - the head: everything before the first user turn (system prompts) and the first exchange,
 *    whose user turn states the goal (its reply stays, so turns still alternate);
 *  - the tail: from the exchange holding the last trained turn (the final actions) to the end.
 * Droppable: the exchanges in between, oldest first.
 */
export function conversationParts(conversation: Conversation): { head: number; tail: number; exchanges: number[] } {
  const { messages, trained } = conversation;
  const starts = messages.flatMap((m, i) => (m.role === 'user' ? [i] : []));
  if (starts.length <= 1) return { head: messages.length, tail: messages.length, exchanges: [] };
  const lastTrained = trained.lastIndexOf(true);
  // The exchange holding the last trained turn (or the last exchange, for a bare prompt).
  const tailStart = lastTrained < 0 ? starts.at(-1)! : (starts.filter((s) => s <= lastTrained).at(-1) ?? 0);
  const head = starts[1]!;
  if (tailStart <= head) return { head: messages.length, tail: messages.length, exchanges: [] };
  return { head, tail: tailStart, exchanges: starts.filter((s) => s >= head && s < tailStart) };
}

/** The conversation without its `drop` oldest droppable exchanges. */
export function dropOldestExchanges(conversation: Conversation, drop: number): Conversation {
  const { head, tail, exchanges } = conversationParts(conversation);
  if (drop <= 0 || exchanges.length === 0) return conversation;
  const resume = drop >= exchanges.length ? tail : exchanges[drop]!;
  const pick = <T>(items: readonly T[]) => [...items.slice(0, head), ...items.slice(resume)];
  return { messages: pick(conversation.messages), trained: pick(conversation.trained) };
}

/**
 * Fits a conversation within `maxLength` tokens by dropping its oldest exchanges, keeping the
 * system prompt, the goal turn and the final actions (see {@link conversationParts}); returns the
 * fewest drops that fit, with the encoding `encode` made of it. Undefined when even the kept
 * parts alone do not fit. Dropping a turn never lengthens a rendering, so a binary search over
 * the number dropped finds it with a few encodings even for long conversations.
 */
export function trimConversation<E extends { tokens: ArrayLike<unknown> }>(
  conversation: Conversation,
  maxLength: number,
  encode: (conversation: Conversation) => E,
): (TrimmedConversation & { encoded: E }) | undefined {
  const attempt = (drop: number) => {
    const trimmed = dropOldestExchanges(conversation, drop);
    const encoded = encode(trimmed);
    return encoded.tokens.length <= maxLength ? { ...trimmed, droppedExchanges: drop, encoded } : undefined;
  };
  const whole = attempt(0);
  if (whole) return whole;
  let [low, high] = [0, conversationParts(conversation).exchanges.length]; // low fails; high is to be tried
  let best = high > 0 ? attempt(high) : undefined;
  if (!best) return undefined;
  while (high - low > 1) {
    const middle = (low + high) >> 1;
    const fits = attempt(middle);
    if (fits) [high, best] = [middle, fits];
    else low = middle;
  }
  return best;
}
