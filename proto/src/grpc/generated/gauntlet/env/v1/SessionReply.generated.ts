// Original file: env.proto

import type { StepResult as _gauntlet_env_v1_StepResult, StepResult__Output as _gauntlet_env_v1_StepResult__Output } from '../../../gauntlet/env/v1/StepResult.generated.js';
import type { State as _gauntlet_env_v1_State, State__Output as _gauntlet_env_v1_State__Output } from '../../../gauntlet/env/v1/State.generated.js';
import type { Error as _gauntlet_env_v1_Error, Error__Output as _gauntlet_env_v1_Error__Output } from '../../../gauntlet/env/v1/Error.generated.js';

export interface SessionReply {
  'result'?: (_gauntlet_env_v1_StepResult | null);
  'state'?: (_gauntlet_env_v1_State | null);
  'error'?: (_gauntlet_env_v1_Error | null);
  'kind'?: "result"|"state"|"error";
}

export interface SessionReply__Output {
  'result'?: (_gauntlet_env_v1_StepResult__Output | null);
  'state'?: (_gauntlet_env_v1_State__Output | null);
  'error'?: (_gauntlet_env_v1_Error__Output | null);
  'kind'?: "result"|"state"|"error";
}
