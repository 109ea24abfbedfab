// Friendly names for the generated message types: `X` is what we write (permissive), `XOut` what
// the loader hands us (every field present, defaults filled).
export type { Action, Action__Output as ActionOut } from './generated/gauntlet/env/v1/Action.generated.js';
export type {
  BrowserGymObs,
  BrowserGymObs__Output as BrowserGymObsOut,
} from './generated/gauntlet/env/v1/BrowserGymObs.generated.js';
export type {
  ElementProperties,
  ElementProperties__Output as ElementPropertiesOut,
} from './generated/gauntlet/env/v1/ElementProperties.generated.js';
export type {
  EncodedScreenshot,
  EncodedScreenshot__Output as EncodedScreenshotOut,
} from './generated/gauntlet/env/v1/EncodedScreenshot.generated.js';
export type { Error, Error__Output as ErrorOut } from './generated/gauntlet/env/v1/Error.generated.js';
export type {
  Observation,
  Observation__Output as ObservationOut,
} from './generated/gauntlet/env/v1/Observation.generated.js';
export type {
  ObservationMetadata,
  ObservationMetadata__Output as ObservationMetadataOut,
} from './generated/gauntlet/env/v1/ObservationMetadata.generated.js';
export type {
  ResetReply,
  ResetReply__Output as ResetReplyOut,
} from './generated/gauntlet/env/v1/ResetReply.generated.js';
export type {
  ResetRequest,
  ResetRequest__Output as ResetRequestOut,
} from './generated/gauntlet/env/v1/ResetRequest.generated.js';
export type { RgbImage, RgbImage__Output as RgbImageOut } from './generated/gauntlet/env/v1/RgbImage.generated.js';
export type {
  SessionReply,
  SessionReply__Output as SessionReplyOut,
} from './generated/gauntlet/env/v1/SessionReply.generated.js';
export type {
  SessionRequest,
  SessionRequest__Output as SessionRequestOut,
} from './generated/gauntlet/env/v1/SessionRequest.generated.js';
export type { State, State__Output as StateOut } from './generated/gauntlet/env/v1/State.generated.js';
export type {
  StepRequest,
  StepRequest__Output as StepRequestOut,
} from './generated/gauntlet/env/v1/StepRequest.generated.js';
export type {
  StepResult,
  StepResult__Output as StepResultOut,
} from './generated/gauntlet/env/v1/StepResult.generated.js';
export type {
  CloseReply,
  CloseReply__Output as CloseReplyOut,
} from './generated/gauntlet/env/v1/CloseReply.generated.js';
export type { EnvServiceClient, EnvServiceHandlers } from './generated/gauntlet/env/v1/EnvService.generated.js';
export type { Struct, Struct__Output as StructOut } from './generated/google/protobuf/Struct.generated.js';
export type { Value, Value__Output as ValueOut } from './generated/google/protobuf/Value.generated.js';
