// Original file: env.proto

import type { StepResult as _gauntlet_env_v1_StepResult, StepResult__Output as _gauntlet_env_v1_StepResult__Output } from '../../../gauntlet/env/v1/StepResult.generated.js';

export interface ResetReply {
  'session_id'?: (string);
  'result'?: (_gauntlet_env_v1_StepResult | null);
}

export interface ResetReply__Output {
  'session_id': (string);
  'result': (_gauntlet_env_v1_StepResult__Output | null);
}
