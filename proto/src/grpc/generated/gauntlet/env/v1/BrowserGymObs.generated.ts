// Original file: env.proto

import type { ChatMessage as _gauntlet_env_v1_ChatMessage, ChatMessage__Output as _gauntlet_env_v1_ChatMessage__Output } from '../../../gauntlet/env/v1/ChatMessage.generated.js';
import type { GoalPart as _gauntlet_env_v1_GoalPart, GoalPart__Output as _gauntlet_env_v1_GoalPart__Output } from '../../../gauntlet/env/v1/GoalPart.generated.js';
import type { ElementProperties as _gauntlet_env_v1_ElementProperties, ElementProperties__Output as _gauntlet_env_v1_ElementProperties__Output } from '../../../gauntlet/env/v1/ElementProperties.generated.js';

export interface BrowserGymObs {
  'chat_messages'?: (_gauntlet_env_v1_ChatMessage)[];
  'goal'?: (string);
  'goal_object'?: (_gauntlet_env_v1_GoalPart)[];
  'open_pages_urls'?: (string)[];
  'open_pages_titles'?: (string)[];
  'active_page_index'?: (number);
  'url'?: (string);
  'extra_element_properties'?: ({[key: string]: _gauntlet_env_v1_ElementProperties});
  'focused_element_bid'?: (string);
  'last_action'?: (string);
  'last_action_error'?: (string);
  'elapsed_time'?: (number | string);
}

export interface BrowserGymObs__Output {
  'chat_messages': (_gauntlet_env_v1_ChatMessage__Output)[];
  'goal': (string);
  'goal_object': (_gauntlet_env_v1_GoalPart__Output)[];
  'open_pages_urls': (string)[];
  'open_pages_titles': (string)[];
  'active_page_index': (number);
  'url': (string);
  'extra_element_properties': ({[key: string]: _gauntlet_env_v1_ElementProperties__Output});
  'focused_element_bid': (string);
  'last_action': (string);
  'last_action_error': (string);
  'elapsed_time': (number);
}
