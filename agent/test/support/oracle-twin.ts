import { createEnvClient, type EnvClient } from '@gauntlet/proto/client';
import type { ChatRequest, FakeAnswer } from './fake-chat.js';

/**
 * A model that "knows" the oracle: it plays a twin episode (same task and seed, its own env
 * session) with `observation.oracle_action`, answers each chat request with the twin's oracle
 * action and plays that action on the twin too, so the twin's page follows the agent's. A new
 * conversation (system + one user message) resets the twin on the next task and seed of `plan`.
 */
export function oracleTwin(envUrl: string, plan: { task: string; seed: number }[]) {
  let env: EnvClient | undefined;
  let next = 0;
  let hint: string | null = null;
  const answer = async (request: ChatRequest): Promise<FakeAnswer> => {
    if (request.messages.length === 2) {
      const episode = plan[next++];
      if (!episode) return { text: 'no episode planned' };
      env ??= createEnvClient(envUrl);
      const reset = await env.reset({
        task_name: episode.task,
        seed: episode.seed,
        observation: { axtree: false, pruned_html: false, extra_properties: false, oracle_action: true },
        ...(episode.task.startsWith('gauntlet')
          ? { action_set: { subsets: ['chat', 'infeas', 'bid', 'coord', 'nav', 'tab'], multi_action: true } }
          : {}),
      });
      hint = reset.metadata.browsergym_info['oracle_action'] as string | null;
    }
    const action = hint ?? 'noop()';
    const after = await env!.step(action);
    hint = after.metadata.browsergym_info['oracle_action'] as string | null;
    // A thinking block first, as reasoning models write: the agent must strip it before parsing.
    return { text: `<think>the page asks for ${action.split('(')[0]}</think>\nAction:\n\`\`\`\n${action}\n\`\`\`` };
  };
  return { answer, close: async () => void (await env?.close().catch(() => undefined)) };
}
