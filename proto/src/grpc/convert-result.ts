import type { Observation, ObservationMetadata, StepResult } from '../wire/observation.js';
import type { State } from '../wire/state.js';
import type * as pb from './messages.js';
import {
  metadataFromMessage,
  metadataToMessage,
  required,
  rgbFromMessage,
  rgbToMessage,
} from './convert-observation.js';
import { fromStruct, toStruct } from './struct.js';

/** JSON StepResult → gRPC message. The observation's metadata is sent once when it is the shared one. */
export function stepResultToMessage(result: StepResult): pb.StepResult {
  return {
    observation: observationToMessage(result.observation, result.metadata),
    ...(result.reward === null ? {} : { reward: result.reward }),
    done: result.done,
    metadata: metadataToMessage(result.metadata),
  };
}

export function stepResultFromMessage(message: pb.StepResultOut): StepResult {
  const metadata = metadataFromMessage(required(message.metadata, 'result.metadata'), 'result.metadata');
  return {
    observation: observationFromMessage(required(message.observation, 'result.observation'), metadata),
    reward: message.reward ?? null,
    done: message.done,
    metadata,
  };
}

function observationToMessage(observation: Observation, shared: ObservationMetadata): pb.Observation {
  return {
    text: observation.text,
    url: observation.url,
    goal: observation.goal,
    axtree_txt: observation.axtree_txt,
    pruned_html: observation.pruned_html,
    error: observation.error,
    last_action_error: observation.last_action_error,
    ...(observation.screenshot ? { screenshot: rgbToMessage(observation.screenshot) } : {}),
    done: observation.done,
    ...(observation.reward === null ? {} : { reward: observation.reward }),
    ...(observation.metadata === shared ? {} : { metadata: metadataToMessage(observation.metadata) }),
  };
}

function observationFromMessage(message: pb.ObservationOut, shared: ObservationMetadata): Observation {
  return {
    text: message.text,
    url: message.url,
    goal: message.goal,
    axtree_txt: message.axtree_txt,
    pruned_html: message.pruned_html,
    error: message.error,
    last_action_error: message.last_action_error,
    screenshot: message.screenshot ? rgbFromMessage(message.screenshot) : null,
    done: message.done,
    reward: message.reward ?? null,
    metadata: message.metadata ? metadataFromMessage(message.metadata, 'observation.metadata') : shared,
  };
}

export function stateToMessage(state: State): pb.State {
  const { episode_id, step_count, benchmark, task_name, task_id, goal, current_url, max_steps, cum_reward, ...extra } =
    state;
  return {
    ...(episode_id === null ? {} : { episode_id }),
    step_count,
    benchmark,
    task_name,
    task_id,
    goal,
    current_url,
    ...(max_steps === null ? {} : { max_steps }),
    cum_reward,
    extra: toStruct(extra),
  };
}

export function stateFromMessage(message: pb.StateOut): State {
  return {
    ...fromStruct(message.extra),
    episode_id: message.episode_id ?? null,
    step_count: message.step_count,
    benchmark: message.benchmark,
    task_name: message.task_name,
    task_id: message.task_id,
    goal: message.goal,
    current_url: message.current_url,
    max_steps: message.max_steps ?? null,
    cum_reward: message.cum_reward,
  };
}
