// Original file: env.proto

import type { StepResult as _gauntlet_env_v1_StepResult, StepResult__Output as _gauntlet_env_v1_StepResult__Output } from '../../../gauntlet/env/v1/StepResult.generated.js';

export interface RecordedStep {
  'index'?: (number);
  'action'?: (string);
  /**
   * The page the action was taken on.
   */
  'before'?: (_gauntlet_env_v1_StepResult | null);
  'reward'?: (number | string);
  'done'?: (boolean);
  'wall_time_s'?: (number | string);
}

export interface RecordedStep__Output {
  'index': (number);
  'action': (string);
  /**
   * The page the action was taken on.
   */
  'before': (_gauntlet_env_v1_StepResult__Output | null);
  'reward': (number);
  'done': (boolean);
  'wall_time_s': (number);
}
