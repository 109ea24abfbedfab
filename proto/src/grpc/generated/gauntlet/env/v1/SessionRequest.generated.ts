// Original file: env.proto

import type { ResetRequest as _gauntlet_env_v1_ResetRequest, ResetRequest__Output as _gauntlet_env_v1_ResetRequest__Output } from '../../../gauntlet/env/v1/ResetRequest.generated.js';
import type { StepRequest as _gauntlet_env_v1_StepRequest, StepRequest__Output as _gauntlet_env_v1_StepRequest__Output } from '../../../gauntlet/env/v1/StepRequest.generated.js';
import type { StateRequest as _gauntlet_env_v1_StateRequest, StateRequest__Output as _gauntlet_env_v1_StateRequest__Output } from '../../../gauntlet/env/v1/StateRequest.generated.js';
import type { CloseRequest as _gauntlet_env_v1_CloseRequest, CloseRequest__Output as _gauntlet_env_v1_CloseRequest__Output } from '../../../gauntlet/env/v1/CloseRequest.generated.js';

export interface SessionRequest {
  'reset'?: (_gauntlet_env_v1_ResetRequest | null);
  'step'?: (_gauntlet_env_v1_StepRequest | null);
  'state'?: (_gauntlet_env_v1_StateRequest | null);
  'close'?: (_gauntlet_env_v1_CloseRequest | null);
  'kind'?: "reset"|"step"|"state"|"close";
}

export interface SessionRequest__Output {
  'reset'?: (_gauntlet_env_v1_ResetRequest__Output | null);
  'step'?: (_gauntlet_env_v1_StepRequest__Output | null);
  'state'?: (_gauntlet_env_v1_StateRequest__Output | null);
  'close'?: (_gauntlet_env_v1_CloseRequest__Output | null);
  'kind'?: "reset"|"step"|"state"|"close";
}
