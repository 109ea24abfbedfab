export { main, TOOL } from './cli/main.js';
export { agentPolicy, type AgentMode, type AgentPolicyOptions } from './policies/agent-policy.js';
export { ChatClient, type ChatReply, type ChatSettings } from './policies/chat-client.js';
export type { PromptMessage } from '@gauntlet/proto/agent';
export { runMetrics, type RunMetrics } from './report/metrics.js';
