/**
 * How an observation is rendered into a prompt: `axtree` is BrowserGym's accessibility tree text
 * as the env returns it; `pruned` keeps the same line syntax but only interactive elements, their
 * state and the text near them (see pruneTree). Oracle data, rollout workers and the agent take
 * the same name, so a policy is trained and run on one format.
 */
export const OBSERVATION_FORMATS = ['axtree', 'pruned'] as const;
export type ObservationFormat = (typeof OBSERVATION_FORMATS)[number];
