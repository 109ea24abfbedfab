// Original file: env.proto

import type { Action as _gauntlet_env_v1_Action, Action__Output as _gauntlet_env_v1_Action__Output } from '../../../gauntlet/env/v1/Action.generated.js';

export interface StepRequest {
  'action'?: (_gauntlet_env_v1_Action | null);
  'timeout_s'?: (number | string);
  'request_id'?: (string);
  /**
   * Unary Step only; must be empty on the Session stream.
   */
  'session_id'?: (string);
  '_timeout_s'?: "timeout_s";
  '_request_id'?: "request_id";
}

export interface StepRequest__Output {
  'action': (_gauntlet_env_v1_Action__Output | null);
  'timeout_s'?: (number);
  'request_id'?: (string);
  /**
   * Unary Step only; must be empty on the Session stream.
   */
  'session_id': (string);
  '_timeout_s'?: "timeout_s";
  '_request_id'?: "request_id";
}
