// Original file: env.proto

import type { RecordedStep as _gauntlet_env_v1_RecordedStep, RecordedStep__Output as _gauntlet_env_v1_RecordedStep__Output } from '../../../gauntlet/env/v1/RecordedStep.generated.js';

export interface RecordReply {
  /**
   * Absent = null: nothing recorded within wait_s.
   */
  'step'?: (_gauntlet_env_v1_RecordedStep | null);
  'recording'?: (boolean);
}

export interface RecordReply__Output {
  /**
   * Absent = null: nothing recorded within wait_s.
   */
  'step': (_gauntlet_env_v1_RecordedStep__Output | null);
  'recording': (boolean);
}
