export { ACTION_NAMES, BID_ARGUMENTS, type ActionName } from '../wire/action-names.js';
export { ACTION_REGEX, actionRegex, type ActionRegexOptions } from './action-regex.js';
export { ChatTemplateError, ChatTokens, type Tokenizer } from './chat-tokens.js';
export { LlmPolicy, type LlmPolicyOptions } from './llm-policy.js';
export { escapeRegex, quotedValues } from './goal-quotes.js';
export { observationBids } from './observation-bids.js';
export { turnRegex, type TurnRegexOptions } from './turn-regex.js';
export { parseAction, type ParseActionOptions, type ParsedAction } from './parse-action.js';
export type { EpisodePolicy, EpisodeStart, PolicyReply, PolicySession, TurnInput } from './policy.js';
export type { PromptMessage } from './prompt-message.js';
export { pruneTree, type PruneOptions } from './prune-tree.js';
export { renderObservation, type RenderOptions } from './render.js';
export { AGENT_OBSERVATION, runEpisode, taskInfo, type EpisodeEnv, type RunEpisodeOptions } from './run-episode.js';
export { observationStateKey, stateText } from './state-key.js';
export { scriptedPolicy, type ScriptedChooser } from './scripted-policy.js';
export { BROWSER_SYSTEM_PROMPT, GAUNTLET_SYSTEM_PROMPT, WEB_SYSTEM_PROMPT, systemPromptFor } from './system-prompt.js';
export { chatTokensFor } from './template-cache.js';
export {
  checkDemonstrationTemplate,
  DEFAULT_DEMONSTRATION_TEMPLATE,
  demonstratedActions,
  demonstrationText,
  withDemonstration,
  type DemonstrationView,
} from './demonstration.js';
export { DEMO_JSONL, readDemoFile, type DemoConversation } from './demo-file.js';
export { demoConditionedCopies, episodeActions, type EpisodeRecord } from './demo-conditioned.js';
