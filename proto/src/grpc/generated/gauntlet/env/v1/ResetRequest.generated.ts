// Original file: env.proto

import type { ObservationOptions as _gauntlet_env_v1_ObservationOptions, ObservationOptions__Output as _gauntlet_env_v1_ObservationOptions__Output } from '../../../gauntlet/env/v1/ObservationOptions.generated.js';
import type { Struct as _google_protobuf_Struct, Struct__Output as _google_protobuf_Struct__Output } from '../../../google/protobuf/Struct.generated.js';
import type { ActionSet as _gauntlet_env_v1_ActionSet, ActionSet__Output as _gauntlet_env_v1_ActionSet__Output } from '../../../gauntlet/env/v1/ActionSet.generated.js';
import type { BrowserOptions as _gauntlet_env_v1_BrowserOptions, BrowserOptions__Output as _gauntlet_env_v1_BrowserOptions__Output } from '../../../gauntlet/env/v1/BrowserOptions.generated.js';
import type { Long } from '@grpc/proto-loader';

export interface ResetRequest {
  'seed'?: (number | string | Long);
  'episode_id'?: (string);
  'task_name'?: (string);
  'observation'?: (_gauntlet_env_v1_ObservationOptions | null);
  'options'?: (_google_protobuf_Struct | null);
  'action_set'?: (_gauntlet_env_v1_ActionSet | null);
  /**
   * Unary Reset only; empty opens a new session. Must be empty on the Session stream.
   */
  'session_id'?: (string);
  'browser'?: (_gauntlet_env_v1_BrowserOptions | null);
  '_seed'?: "seed";
  '_episode_id'?: "episode_id";
  '_task_name'?: "task_name";
}

export interface ResetRequest__Output {
  'seed'?: (number);
  'episode_id'?: (string);
  'task_name'?: (string);
  'observation': (_gauntlet_env_v1_ObservationOptions__Output | null);
  'options': (_google_protobuf_Struct__Output | null);
  'action_set': (_gauntlet_env_v1_ActionSet__Output | null);
  /**
   * Unary Reset only; empty opens a new session. Must be empty on the Session stream.
   */
  'session_id': (string);
  'browser': (_gauntlet_env_v1_BrowserOptions__Output | null);
  '_seed'?: "seed";
  '_episode_id'?: "episode_id";
  '_task_name'?: "task_name";
}
