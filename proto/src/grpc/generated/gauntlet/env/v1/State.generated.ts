// Original file: env.proto

import type { Struct as _google_protobuf_Struct, Struct__Output as _google_protobuf_Struct__Output } from '../../../google/protobuf/Struct.generated.js';

export interface State {
  'episode_id'?: (string);
  'step_count'?: (number);
  'benchmark'?: (string);
  'task_name'?: (string);
  'task_id'?: (string);
  'goal'?: (string);
  'current_url'?: (string);
  'max_steps'?: (number);
  'cum_reward'?: (number | string);
  /**
   * Any further keys of the JSON state object (session_id, seed, done, ...).
   */
  'extra'?: (_google_protobuf_Struct | null);
  '_episode_id'?: "episode_id";
  '_max_steps'?: "max_steps";
}

export interface State__Output {
  'episode_id'?: (string);
  'step_count': (number);
  'benchmark': (string);
  'task_name': (string);
  'task_id': (string);
  'goal': (string);
  'current_url': (string);
  'max_steps'?: (number);
  'cum_reward': (number);
  /**
   * Any further keys of the JSON state object (session_id, seed, done, ...).
   */
  'extra': (_google_protobuf_Struct__Output | null);
  '_episode_id'?: "episode_id";
  '_max_steps'?: "max_steps";
}
