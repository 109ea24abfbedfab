import type { TemplateMessage } from '../../model/chat-template.js';
import { demonstratedActions, demonstrationText } from '@gauntlet/proto/agent';

/** One demonstration as a conversation: system prompt, then per action the observation (user) and the action (assistant). */
export interface Demonstration {
  task: string;
  messages: readonly TemplateMessage[];
}

/** A state of a demonstration the student answers from: the conversation up to its observation. */
export interface DemoState {
  /** The demonstration's conversation up to and including this state's user turn. */
  prompt: TemplateMessage[];
  /** What the demonstrator did here (reported, never trained on directly). */
  action: string;
  /** The whole demonstration as the teacher's template shows it. */
  demonstration: string;
}

/**
 * Every state of a demonstration, in order: each user turn followed by the assistant's action.
 * A user turn with no action after it (a recording stopped mid-way) is no state to learn from.
 */
export function demoStates(demo: Demonstration): DemoState[] {
  const { messages } = demo;
  const demonstration = demonstrationText(demonstratedActions(messages));
  const states: DemoState[] = [];
  messages.forEach((m, i) => {
    const next = messages[i + 1];
    if (m.role === 'user' && next?.role === 'assistant')
      states.push({ prompt: messages.slice(0, i + 1).map((x) => ({ ...x })), action: next.content, demonstration });
  });
  return states;
}
