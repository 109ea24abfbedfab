import type * as grpc from '@grpc/grpc-js';
import type { EnumTypeDefinition, MessageTypeDefinition } from '@grpc/proto-loader';

import type { Action as _gauntlet_env_v1_Action, Action__Output as _gauntlet_env_v1_Action__Output } from './gauntlet/env/v1/Action.generated.js';
import type { ActionSet as _gauntlet_env_v1_ActionSet, ActionSet__Output as _gauntlet_env_v1_ActionSet__Output } from './gauntlet/env/v1/ActionSet.generated.js';
import type { BrowserGymObs as _gauntlet_env_v1_BrowserGymObs, BrowserGymObs__Output as _gauntlet_env_v1_BrowserGymObs__Output } from './gauntlet/env/v1/BrowserGymObs.generated.js';
import type { BrowserOptions as _gauntlet_env_v1_BrowserOptions, BrowserOptions__Output as _gauntlet_env_v1_BrowserOptions__Output } from './gauntlet/env/v1/BrowserOptions.generated.js';
import type { ChatMessage as _gauntlet_env_v1_ChatMessage, ChatMessage__Output as _gauntlet_env_v1_ChatMessage__Output } from './gauntlet/env/v1/ChatMessage.generated.js';
import type { CloseReply as _gauntlet_env_v1_CloseReply, CloseReply__Output as _gauntlet_env_v1_CloseReply__Output } from './gauntlet/env/v1/CloseReply.generated.js';
import type { CloseRequest as _gauntlet_env_v1_CloseRequest, CloseRequest__Output as _gauntlet_env_v1_CloseRequest__Output } from './gauntlet/env/v1/CloseRequest.generated.js';
import type { ElementProperties as _gauntlet_env_v1_ElementProperties, ElementProperties__Output as _gauntlet_env_v1_ElementProperties__Output } from './gauntlet/env/v1/ElementProperties.generated.js';
import type { EncodedScreenshot as _gauntlet_env_v1_EncodedScreenshot, EncodedScreenshot__Output as _gauntlet_env_v1_EncodedScreenshot__Output } from './gauntlet/env/v1/EncodedScreenshot.generated.js';
import type { EnvServiceClient as _gauntlet_env_v1_EnvServiceClient, EnvServiceDefinition as _gauntlet_env_v1_EnvServiceDefinition } from './gauntlet/env/v1/EnvService.generated.js';
import type { Error as _gauntlet_env_v1_Error, Error__Output as _gauntlet_env_v1_Error__Output } from './gauntlet/env/v1/Error.generated.js';
import type { GoalPart as _gauntlet_env_v1_GoalPart, GoalPart__Output as _gauntlet_env_v1_GoalPart__Output } from './gauntlet/env/v1/GoalPart.generated.js';
import type { Observation as _gauntlet_env_v1_Observation, Observation__Output as _gauntlet_env_v1_Observation__Output } from './gauntlet/env/v1/Observation.generated.js';
import type { ObservationMetadata as _gauntlet_env_v1_ObservationMetadata, ObservationMetadata__Output as _gauntlet_env_v1_ObservationMetadata__Output } from './gauntlet/env/v1/ObservationMetadata.generated.js';
import type { ObservationOptions as _gauntlet_env_v1_ObservationOptions, ObservationOptions__Output as _gauntlet_env_v1_ObservationOptions__Output } from './gauntlet/env/v1/ObservationOptions.generated.js';
import type { RecordReply as _gauntlet_env_v1_RecordReply, RecordReply__Output as _gauntlet_env_v1_RecordReply__Output } from './gauntlet/env/v1/RecordReply.generated.js';
import type { RecordRequest as _gauntlet_env_v1_RecordRequest, RecordRequest__Output as _gauntlet_env_v1_RecordRequest__Output } from './gauntlet/env/v1/RecordRequest.generated.js';
import type { RecordedStep as _gauntlet_env_v1_RecordedStep, RecordedStep__Output as _gauntlet_env_v1_RecordedStep__Output } from './gauntlet/env/v1/RecordedStep.generated.js';
import type { ResetReply as _gauntlet_env_v1_ResetReply, ResetReply__Output as _gauntlet_env_v1_ResetReply__Output } from './gauntlet/env/v1/ResetReply.generated.js';
import type { ResetRequest as _gauntlet_env_v1_ResetRequest, ResetRequest__Output as _gauntlet_env_v1_ResetRequest__Output } from './gauntlet/env/v1/ResetRequest.generated.js';
import type { RgbImage as _gauntlet_env_v1_RgbImage, RgbImage__Output as _gauntlet_env_v1_RgbImage__Output } from './gauntlet/env/v1/RgbImage.generated.js';
import type { SessionReply as _gauntlet_env_v1_SessionReply, SessionReply__Output as _gauntlet_env_v1_SessionReply__Output } from './gauntlet/env/v1/SessionReply.generated.js';
import type { SessionRequest as _gauntlet_env_v1_SessionRequest, SessionRequest__Output as _gauntlet_env_v1_SessionRequest__Output } from './gauntlet/env/v1/SessionRequest.generated.js';
import type { State as _gauntlet_env_v1_State, State__Output as _gauntlet_env_v1_State__Output } from './gauntlet/env/v1/State.generated.js';
import type { StateRequest as _gauntlet_env_v1_StateRequest, StateRequest__Output as _gauntlet_env_v1_StateRequest__Output } from './gauntlet/env/v1/StateRequest.generated.js';
import type { StepRequest as _gauntlet_env_v1_StepRequest, StepRequest__Output as _gauntlet_env_v1_StepRequest__Output } from './gauntlet/env/v1/StepRequest.generated.js';
import type { StepResult as _gauntlet_env_v1_StepResult, StepResult__Output as _gauntlet_env_v1_StepResult__Output } from './gauntlet/env/v1/StepResult.generated.js';
import type { ListValue as _google_protobuf_ListValue, ListValue__Output as _google_protobuf_ListValue__Output } from './google/protobuf/ListValue.generated.js';
import type { Struct as _google_protobuf_Struct, Struct__Output as _google_protobuf_Struct__Output } from './google/protobuf/Struct.generated.js';
import type { Value as _google_protobuf_Value, Value__Output as _google_protobuf_Value__Output } from './google/protobuf/Value.generated.js';

type SubtypeConstructor<Constructor extends new (...args: any) => any, Subtype> = {
  new(...args: ConstructorParameters<Constructor>): Subtype;
};

export interface ProtoGrpcType {
  gauntlet: {
    env: {
      v1: {
        Action: MessageTypeDefinition<_gauntlet_env_v1_Action, _gauntlet_env_v1_Action__Output>
        ActionSet: MessageTypeDefinition<_gauntlet_env_v1_ActionSet, _gauntlet_env_v1_ActionSet__Output>
        BrowserGymObs: MessageTypeDefinition<_gauntlet_env_v1_BrowserGymObs, _gauntlet_env_v1_BrowserGymObs__Output>
        BrowserOptions: MessageTypeDefinition<_gauntlet_env_v1_BrowserOptions, _gauntlet_env_v1_BrowserOptions__Output>
        ChatMessage: MessageTypeDefinition<_gauntlet_env_v1_ChatMessage, _gauntlet_env_v1_ChatMessage__Output>
        CloseReply: MessageTypeDefinition<_gauntlet_env_v1_CloseReply, _gauntlet_env_v1_CloseReply__Output>
        CloseRequest: MessageTypeDefinition<_gauntlet_env_v1_CloseRequest, _gauntlet_env_v1_CloseRequest__Output>
        ElementProperties: MessageTypeDefinition<_gauntlet_env_v1_ElementProperties, _gauntlet_env_v1_ElementProperties__Output>
        EncodedScreenshot: MessageTypeDefinition<_gauntlet_env_v1_EncodedScreenshot, _gauntlet_env_v1_EncodedScreenshot__Output>
        /**
         * Unary calls address a session by id (like HTTP's x-session-id); Session is one bidirectional
         * stream per session (like OpenEnv's /ws): requests answered in order, one reply each.
         * Errors: INVALID_ARGUMENT (bad input), NOT_FOUND (unknown session), RESOURCE_EXHAUSTED
         * (capacity, oversize message), UNAVAILABLE (browser/infra), DEADLINE_EXCEEDED, FAILED_PRECONDITION
         * (step before reset, episode over), ABORTED (session closed by the server), UNAUTHENTICATED;
         * the typed error rides in trailing metadata `gauntlet-error-bin` (JSON {name, message, code, details}).
         * State's reply type is fully qualified because inside the service protoc resolves a bare `State`
         * to the rpc itself ("State is not a message type"); proto/test/protoc.test.ts compiles with protoc.
         */
        EnvService: SubtypeConstructor<typeof grpc.Client, _gauntlet_env_v1_EnvServiceClient> & { service: _gauntlet_env_v1_EnvServiceDefinition }
        Error: MessageTypeDefinition<_gauntlet_env_v1_Error, _gauntlet_env_v1_Error__Output>
        GoalPart: MessageTypeDefinition<_gauntlet_env_v1_GoalPart, _gauntlet_env_v1_GoalPart__Output>
        Observation: MessageTypeDefinition<_gauntlet_env_v1_Observation, _gauntlet_env_v1_Observation__Output>
        ObservationMetadata: MessageTypeDefinition<_gauntlet_env_v1_ObservationMetadata, _gauntlet_env_v1_ObservationMetadata__Output>
        ObservationOptions: MessageTypeDefinition<_gauntlet_env_v1_ObservationOptions, _gauntlet_env_v1_ObservationOptions__Output>
        RecordReply: MessageTypeDefinition<_gauntlet_env_v1_RecordReply, _gauntlet_env_v1_RecordReply__Output>
        RecordRequest: MessageTypeDefinition<_gauntlet_env_v1_RecordRequest, _gauntlet_env_v1_RecordRequest__Output>
        RecordedStep: MessageTypeDefinition<_gauntlet_env_v1_RecordedStep, _gauntlet_env_v1_RecordedStep__Output>
        ResetReply: MessageTypeDefinition<_gauntlet_env_v1_ResetReply, _gauntlet_env_v1_ResetReply__Output>
        ResetRequest: MessageTypeDefinition<_gauntlet_env_v1_ResetRequest, _gauntlet_env_v1_ResetRequest__Output>
        RgbImage: MessageTypeDefinition<_gauntlet_env_v1_RgbImage, _gauntlet_env_v1_RgbImage__Output>
        SessionReply: MessageTypeDefinition<_gauntlet_env_v1_SessionReply, _gauntlet_env_v1_SessionReply__Output>
        SessionRequest: MessageTypeDefinition<_gauntlet_env_v1_SessionRequest, _gauntlet_env_v1_SessionRequest__Output>
        State: MessageTypeDefinition<_gauntlet_env_v1_State, _gauntlet_env_v1_State__Output>
        StateRequest: MessageTypeDefinition<_gauntlet_env_v1_StateRequest, _gauntlet_env_v1_StateRequest__Output>
        StepRequest: MessageTypeDefinition<_gauntlet_env_v1_StepRequest, _gauntlet_env_v1_StepRequest__Output>
        StepResult: MessageTypeDefinition<_gauntlet_env_v1_StepResult, _gauntlet_env_v1_StepResult__Output>
      }
    }
  }
  google: {
    protobuf: {
      ListValue: MessageTypeDefinition<_google_protobuf_ListValue, _google_protobuf_ListValue__Output>
      NullValue: EnumTypeDefinition
      Struct: MessageTypeDefinition<_google_protobuf_Struct, _google_protobuf_Struct__Output>
      Value: MessageTypeDefinition<_google_protobuf_Value, _google_protobuf_Value__Output>
    }
  }
}

