// Original file: env.proto

import type { Observation as _gauntlet_env_v1_Observation, Observation__Output as _gauntlet_env_v1_Observation__Output } from '../../../gauntlet/env/v1/Observation.generated.js';
import type { ObservationMetadata as _gauntlet_env_v1_ObservationMetadata, ObservationMetadata__Output as _gauntlet_env_v1_ObservationMetadata__Output } from '../../../gauntlet/env/v1/ObservationMetadata.generated.js';

export interface StepResult {
  'observation'?: (_gauntlet_env_v1_Observation | null);
  'reward'?: (number | string);
  'done'?: (boolean);
  'metadata'?: (_gauntlet_env_v1_ObservationMetadata | null);
  '_reward'?: "reward";
}

export interface StepResult__Output {
  'observation': (_gauntlet_env_v1_Observation__Output | null);
  'reward'?: (number);
  'done': (boolean);
  'metadata': (_gauntlet_env_v1_ObservationMetadata__Output | null);
  '_reward'?: "reward";
}
