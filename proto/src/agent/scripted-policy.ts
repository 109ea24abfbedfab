import type { PolicyRef } from '../rollout/trajectory.js';
import type { EpisodePolicy, EpisodeStart, PolicySession, TurnInput } from './policy.js';

/** Chooses each action from what is on screen; may keep state across one episode's turns. */
export type ScriptedChooser = (turn: TurnInput) => string;

/**
 * A policy without tokens: `begin` makes one chooser per episode (oracles, test
 * harnesses). Its actions are sent exactly as chosen (not parsed); its turns record `model` as
 * the policy and no adapter. A chooser that throws PolicyGaveUpError ends the episode as `fail`.
 */
export function scriptedPolicy(model: string, begin: (episode: EpisodeStart) => ScriptedChooser): EpisodePolicy {
  const policy: PolicyRef = { model, adapter: null, version: null };
  return {
    async start(episode): Promise<PolicySession> {
      const choose = begin(episode);
      return {
        promptIds: [],
        act: async (turn) => {
          const action = choose(turn);
          return { text: action, action, completionIds: [], logprobs: [], trimmedExchanges: 0, policy };
        },
        observe: async () => [],
      };
    },
  };
}
