/**
 * One message of a model prompt, as a chat completion takes it. Not the env's `ChatMessage`
 * (the BrowserGym page chat in an observation, with a timestamp). A type, not an interface, so
 * that it passes where the policy server's looser wire message is asked for.
 */
export type PromptMessage = { role: 'system' | 'user' | 'assistant'; content: string };
