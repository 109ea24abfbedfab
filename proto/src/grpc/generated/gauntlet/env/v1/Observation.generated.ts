// Original file: env.proto

import type { RgbImage as _gauntlet_env_v1_RgbImage, RgbImage__Output as _gauntlet_env_v1_RgbImage__Output } from '../../../gauntlet/env/v1/RgbImage.generated.js';
import type { ObservationMetadata as _gauntlet_env_v1_ObservationMetadata, ObservationMetadata__Output as _gauntlet_env_v1_ObservationMetadata__Output } from '../../../gauntlet/env/v1/ObservationMetadata.generated.js';

export interface Observation {
  'text'?: (string);
  'url'?: (string);
  'goal'?: (string);
  'axtree_txt'?: (string);
  'pruned_html'?: (string);
  'error'?: (string);
  'last_action_error'?: (boolean);
  /**
   * Absent = null (screenshots off).
   */
  'screenshot'?: (_gauntlet_env_v1_RgbImage | null);
  'done'?: (boolean);
  'reward'?: (number | string);
  /**
   * Absent when identical to StepResult.metadata (always, from this server): sent once, not twice.
   */
  'metadata'?: (_gauntlet_env_v1_ObservationMetadata | null);
  '_reward'?: "reward";
}

export interface Observation__Output {
  'text': (string);
  'url': (string);
  'goal': (string);
  'axtree_txt': (string);
  'pruned_html': (string);
  'error': (string);
  'last_action_error': (boolean);
  /**
   * Absent = null (screenshots off).
   */
  'screenshot': (_gauntlet_env_v1_RgbImage__Output | null);
  'done': (boolean);
  'reward'?: (number);
  /**
   * Absent when identical to StepResult.metadata (always, from this server): sent once, not twice.
   */
  'metadata': (_gauntlet_env_v1_ObservationMetadata__Output | null);
  '_reward'?: "reward";
}
