import { ContextBudgetError } from '@gauntlet/proto/rollout';
import type { PromptMessage } from '@gauntlet/proto/agent';

/** Rough tokens of a text without a tokenizer: UTF-8 bytes / 4, rounded up, plus a few per message. */
export const estimateTokens = (text: string): number => Math.ceil(Buffer.byteLength(text, 'utf8') / 4) + 4;

/** `<think>…</think>` blocks (and an unclosed one at the end) removed: what the model decided, not how. */
export function stripThinking(text: string): string {
  return text
    .replace(/<think>[\s\S]*?<\/think>/g, '')
    .replace(/<think>[\s\S]*$/, '')
    .trim();
}

/**
 * One episode's conversation: the system prompt, the first user message (the goal and first
 * page), then one exchange per turn. Over `contextTokens`, the oldest exchanges are left out —
 * never the system prompt, the first user message or the newest observation.
 */
export class ChatHistory {
  private readonly replies: string[] = [];
  private readonly observations: string[] = [];

  constructor(
    private readonly system: string,
    private readonly contextTokens: number,
    private readonly replyTokens: number,
  ) {}

  /** Exchanges left out of the last prompt. */
  trimmed = 0;

  /** The messages for the turn that sees `observation` (the first call: the first user message). */
  prompt(observation: string): PromptMessage[] {
    if (this.observations.length === 0) this.observations.push(observation);
    else if (this.observations.length === this.replies.length) this.observations.push(observation);
    const head: PromptMessage[] = [
      { role: 'system', content: this.system },
      { role: 'user', content: this.observations[0]! },
    ];
    // Exchange i: the reply to observation i, then observation i + 1.
    const exchanges: PromptMessage[][] = this.replies.map((reply, i) => [
      { role: 'assistant', content: reply },
      { role: 'user', content: this.observations[i + 1]! },
    ]);
    const cost = (messages: PromptMessage[]) => messages.reduce((sum, m) => sum + estimateTokens(m.content), 0);
    const room = this.contextTokens - this.replyTokens - cost(head);
    let kept = exchanges.length;
    let used = 0;
    // The newest exchange carries the newest observation: it always stays.
    while (kept > 0) {
      const next = cost(exchanges[kept - 1]!);
      if (kept < exchanges.length && used + next > room) break;
      used += next;
      kept -= 1;
    }
    if (used > room || room < 0)
      throw new ContextBudgetError(
        `the prompt needs about ${cost(head) + used} tokens with only the goal and the newest page; --context-tokens is ${this.contextTokens} (with ${this.replyTokens} for the reply)`,
      );
    this.trimmed = kept;
    return [...head, ...exchanges.slice(kept).flat()];
  }

  /** The reply to the newest observation (reasoning stripped, so later prompts stay short). */
  reply(text: string): void {
    this.replies.push(stripThinking(text));
  }
}
