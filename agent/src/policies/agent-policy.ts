import type { EpisodePolicy, PolicyReply, PolicySession } from '@gauntlet/proto/agent';
import { parseAction, turnRegex } from '@gauntlet/proto/agent';
import { PolicyGaveUpError, type PolicyRef } from '@gauntlet/proto/rollout';
import type { EpisodeLog, TurnLog } from '../report/turn-log.js';
import type { ChatClient } from './chat-client.js';
import { ChatHistory, estimateTokens } from './chat-history.js';
import { OracleHints } from './oracle-hints.js';

export type AgentMode = 'oracle' | 'api' | 'hybrid' | 'local';

/** Modes where only the model acts (no oracle hints are asked for). */
export const modelOnly = (mode: AgentMode): boolean => mode === 'api' || mode === 'local';

export interface AgentPolicyOptions {
  mode: AgentMode;
  /** The model (api, hybrid and local modes). */
  chat?: ChatClient;
  contextTokens: number;
  /** Oracle actions on one step before it counts as stuck. */
  oracleStepActions: number;
  /** Replies in a row without a valid action before the episode is given up (`fail`). */
  maxParseErrors: number;
  /** Multi-line replies run every action (the Gauntlet's action set). */
  multiAction: boolean;
  /** Every model reply is constrained to an action naming only the page's element ids. */
  constrained?: boolean;
  /** Constrained replies type (fill) or pick (select_option) only one of the goal's double-quoted values. */
  textChoices?: boolean;
}

export const ORACLE_POLICY: PolicyRef = { model: 'env-oracle', adapter: null, version: null };

/**
 * The agent's episode policy. `oracle`: plays the env's oracle hint, gives up when there is none.
 * `api` and `local`: ask the chat model every turn. `hybrid`: the oracle first, the model on the turns the
 * oracle has no action for (no oracle, it cannot tell, it is stuck). Every turn is logged in `log`.
 */
export function agentPolicy(options: AgentPolicyOptions, log: EpisodeLog): EpisodePolicy {
  return {
    async start(episode): Promise<PolicySession> {
      const hints = new OracleHints(options.oracleStepActions);
      const maxTokens = options.chat?.settings.maxTokens ?? 0;
      const history = new ChatHistory(episode.systemPrompt, options.contextTokens, maxTokens);
      let parseErrors = 0;
      return {
        promptIds: [],
        observe: async () => [],
        async act(turn, call): Promise<PolicyReply> {
          const base = { completionIds: [], logprobs: [] };
          const hint = modelOnly(options.mode) ? undefined : hints.next(turn.result);
          if (hint && 'action' in hint) {
            // The model's history includes the oracle's turns, so it can take over mid-episode.
            history.prompt(turn.observation);
            history.reply(hint.action);
            log[turn.index] = { actor: 'oracle', ...noModel() };
            return { ...base, text: hint.action, action: hint.action, trimmedExchanges: 0, policy: ORACLE_POLICY };
          }
          if (options.mode === 'oracle' || !options.chat)
            throw new PolicyGaveUpError(`oracle: ${hint && 'reason' in hint ? hint.reason : 'no action'}`);
          // Checked before asking again, so the last bad reply is still played (as noop()) and recorded.
          if (parseErrors >= options.maxParseErrors)
            throw new PolicyGaveUpError(`the model wrote no valid action in ${parseErrors} replies in a row`);
          const messages = history.prompt(turn.observation);
          const regex = options.constrained
            ? turnRegex(turn.result, {
                bidChoices: true,
                textChoices: options.textChoices ?? false,
                multiAction: options.multiAction,
              })
            : undefined;
          const reply = await options.chat.complete(messages, call, regex);
          history.reply(reply.text);
          const entry: TurnLog = {
            actor: 'model',
            ...(hint && 'silence' in hint ? { oracleSilence: hint.silence } : {}),
            modelCalls: reply.calls,
            tokensIn: reply.usage.promptTokens ?? messages.reduce((n, m) => n + estimateTokens(m.content), 0),
            tokensOut: reply.usage.completionTokens ?? estimateTokens(reply.text),
            usageReported: reply.usage.promptTokens !== undefined,
            ...(reply.usage.cost === undefined ? {} : { cost: reply.usage.cost }),
            trimmedExchanges: history.trimmed,
          };
          log[turn.index] = entry;
          parseErrors = parseAction(reply.text, { multiAction: options.multiAction }).fallback ? parseErrors + 1 : 0;
          return {
            ...base,
            text: reply.text,
            trimmedExchanges: history.trimmed,
            policy: { model: reply.model, adapter: null, version: null },
          };
        },
      };
    },
  };
}

function noModel(): Omit<TurnLog, 'actor'> {
  return { modelCalls: 0, tokensIn: 0, tokensOut: 0, usageReported: false, trimmedExchanges: 0 };
}
