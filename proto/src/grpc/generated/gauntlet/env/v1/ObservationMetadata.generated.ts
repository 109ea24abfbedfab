// Original file: env.proto

import type { BrowserGymObs as _gauntlet_env_v1_BrowserGymObs, BrowserGymObs__Output as _gauntlet_env_v1_BrowserGymObs__Output } from '../../../gauntlet/env/v1/BrowserGymObs.generated.js';
import type { Struct as _google_protobuf_Struct, Struct__Output as _google_protobuf_Struct__Output } from '../../../google/protobuf/Struct.generated.js';
import type { EncodedScreenshot as _gauntlet_env_v1_EncodedScreenshot, EncodedScreenshot__Output as _gauntlet_env_v1_EncodedScreenshot__Output } from '../../../gauntlet/env/v1/EncodedScreenshot.generated.js';

export interface ObservationMetadata {
  'browsergym_obs'?: (_gauntlet_env_v1_BrowserGymObs | null);
  'browsergym_info'?: (_google_protobuf_Struct | null);
  'screenshot_encoded'?: (_gauntlet_env_v1_EncodedScreenshot | null);
  /**
   * Any further keys of the JSON metadata object.
   */
  'extra'?: (_google_protobuf_Struct | null);
}

export interface ObservationMetadata__Output {
  'browsergym_obs': (_gauntlet_env_v1_BrowserGymObs__Output | null);
  'browsergym_info': (_google_protobuf_Struct__Output | null);
  'screenshot_encoded': (_gauntlet_env_v1_EncodedScreenshot__Output | null);
  /**
   * Any further keys of the JSON metadata object.
   */
  'extra': (_google_protobuf_Struct__Output | null);
}
