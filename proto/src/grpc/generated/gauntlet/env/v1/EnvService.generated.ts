// Original file: env.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { CloseReply as _gauntlet_env_v1_CloseReply, CloseReply__Output as _gauntlet_env_v1_CloseReply__Output } from '../../../gauntlet/env/v1/CloseReply.generated.js';
import type { CloseRequest as _gauntlet_env_v1_CloseRequest, CloseRequest__Output as _gauntlet_env_v1_CloseRequest__Output } from '../../../gauntlet/env/v1/CloseRequest.generated.js';
import type { ResetReply as _gauntlet_env_v1_ResetReply, ResetReply__Output as _gauntlet_env_v1_ResetReply__Output } from '../../../gauntlet/env/v1/ResetReply.generated.js';
import type { ResetRequest as _gauntlet_env_v1_ResetRequest, ResetRequest__Output as _gauntlet_env_v1_ResetRequest__Output } from '../../../gauntlet/env/v1/ResetRequest.generated.js';
import type { SessionReply as _gauntlet_env_v1_SessionReply, SessionReply__Output as _gauntlet_env_v1_SessionReply__Output } from '../../../gauntlet/env/v1/SessionReply.generated.js';
import type { SessionRequest as _gauntlet_env_v1_SessionRequest, SessionRequest__Output as _gauntlet_env_v1_SessionRequest__Output } from '../../../gauntlet/env/v1/SessionRequest.generated.js';
import type { State as _gauntlet_env_v1_State, State__Output as _gauntlet_env_v1_State__Output } from '../../../gauntlet/env/v1/State.generated.js';
import type { StateRequest as _gauntlet_env_v1_StateRequest, StateRequest__Output as _gauntlet_env_v1_StateRequest__Output } from '../../../gauntlet/env/v1/StateRequest.generated.js';
import type { StepRequest as _gauntlet_env_v1_StepRequest, StepRequest__Output as _gauntlet_env_v1_StepRequest__Output } from '../../../gauntlet/env/v1/StepRequest.generated.js';
import type { StepResult as _gauntlet_env_v1_StepResult, StepResult__Output as _gauntlet_env_v1_StepResult__Output } from '../../../gauntlet/env/v1/StepResult.generated.js';

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
export interface EnvServiceClient extends grpc.Client {
  Close(argument: _gauntlet_env_v1_CloseRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gauntlet_env_v1_CloseReply__Output>): grpc.ClientUnaryCall;
  Close(argument: _gauntlet_env_v1_CloseRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gauntlet_env_v1_CloseReply__Output>): grpc.ClientUnaryCall;
  Close(argument: _gauntlet_env_v1_CloseRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gauntlet_env_v1_CloseReply__Output>): grpc.ClientUnaryCall;
  Close(argument: _gauntlet_env_v1_CloseRequest, callback: grpc.requestCallback<_gauntlet_env_v1_CloseReply__Output>): grpc.ClientUnaryCall;
  
  /**
   * Resets the session named by session_id; an empty session_id opens a new session (close it).
   */
  Reset(argument: _gauntlet_env_v1_ResetRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gauntlet_env_v1_ResetReply__Output>): grpc.ClientUnaryCall;
  Reset(argument: _gauntlet_env_v1_ResetRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gauntlet_env_v1_ResetReply__Output>): grpc.ClientUnaryCall;
  Reset(argument: _gauntlet_env_v1_ResetRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gauntlet_env_v1_ResetReply__Output>): grpc.ClientUnaryCall;
  Reset(argument: _gauntlet_env_v1_ResetRequest, callback: grpc.requestCallback<_gauntlet_env_v1_ResetReply__Output>): grpc.ClientUnaryCall;
  /**
   * Resets the session named by session_id; an empty session_id opens a new session (close it).
   */
  reset(argument: _gauntlet_env_v1_ResetRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gauntlet_env_v1_ResetReply__Output>): grpc.ClientUnaryCall;
  reset(argument: _gauntlet_env_v1_ResetRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gauntlet_env_v1_ResetReply__Output>): grpc.ClientUnaryCall;
  reset(argument: _gauntlet_env_v1_ResetRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gauntlet_env_v1_ResetReply__Output>): grpc.ClientUnaryCall;
  reset(argument: _gauntlet_env_v1_ResetRequest, callback: grpc.requestCallback<_gauntlet_env_v1_ResetReply__Output>): grpc.ClientUnaryCall;
  
  /**
   * One stream = one session. The server sends initial metadata `x-session-id` once the session
   * is open (capacity is checked first). Per-request errors come back as SessionReply.error and
   * the stream goes on; a half-close or a `close` request ends the session.
   */
  Session(metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientDuplexStream<_gauntlet_env_v1_SessionRequest, _gauntlet_env_v1_SessionReply__Output>;
  Session(options?: grpc.CallOptions): grpc.ClientDuplexStream<_gauntlet_env_v1_SessionRequest, _gauntlet_env_v1_SessionReply__Output>;
  /**
   * One stream = one session. The server sends initial metadata `x-session-id` once the session
   * is open (capacity is checked first). Per-request errors come back as SessionReply.error and
   * the stream goes on; a half-close or a `close` request ends the session.
   */
  session(metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientDuplexStream<_gauntlet_env_v1_SessionRequest, _gauntlet_env_v1_SessionReply__Output>;
  session(options?: grpc.CallOptions): grpc.ClientDuplexStream<_gauntlet_env_v1_SessionRequest, _gauntlet_env_v1_SessionReply__Output>;
  
  State(argument: _gauntlet_env_v1_StateRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gauntlet_env_v1_State__Output>): grpc.ClientUnaryCall;
  State(argument: _gauntlet_env_v1_StateRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gauntlet_env_v1_State__Output>): grpc.ClientUnaryCall;
  State(argument: _gauntlet_env_v1_StateRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gauntlet_env_v1_State__Output>): grpc.ClientUnaryCall;
  State(argument: _gauntlet_env_v1_StateRequest, callback: grpc.requestCallback<_gauntlet_env_v1_State__Output>): grpc.ClientUnaryCall;
  state(argument: _gauntlet_env_v1_StateRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gauntlet_env_v1_State__Output>): grpc.ClientUnaryCall;
  state(argument: _gauntlet_env_v1_StateRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gauntlet_env_v1_State__Output>): grpc.ClientUnaryCall;
  state(argument: _gauntlet_env_v1_StateRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gauntlet_env_v1_State__Output>): grpc.ClientUnaryCall;
  state(argument: _gauntlet_env_v1_StateRequest, callback: grpc.requestCallback<_gauntlet_env_v1_State__Output>): grpc.ClientUnaryCall;
  
  /**
   * The step timeout is min(timeout_s, the call's deadline).
   */
  Step(argument: _gauntlet_env_v1_StepRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gauntlet_env_v1_StepResult__Output>): grpc.ClientUnaryCall;
  Step(argument: _gauntlet_env_v1_StepRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gauntlet_env_v1_StepResult__Output>): grpc.ClientUnaryCall;
  Step(argument: _gauntlet_env_v1_StepRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gauntlet_env_v1_StepResult__Output>): grpc.ClientUnaryCall;
  Step(argument: _gauntlet_env_v1_StepRequest, callback: grpc.requestCallback<_gauntlet_env_v1_StepResult__Output>): grpc.ClientUnaryCall;
  /**
   * The step timeout is min(timeout_s, the call's deadline).
   */
  step(argument: _gauntlet_env_v1_StepRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gauntlet_env_v1_StepResult__Output>): grpc.ClientUnaryCall;
  step(argument: _gauntlet_env_v1_StepRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gauntlet_env_v1_StepResult__Output>): grpc.ClientUnaryCall;
  step(argument: _gauntlet_env_v1_StepRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gauntlet_env_v1_StepResult__Output>): grpc.ClientUnaryCall;
  step(argument: _gauntlet_env_v1_StepRequest, callback: grpc.requestCallback<_gauntlet_env_v1_StepResult__Output>): grpc.ClientUnaryCall;
  
}

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
export interface EnvServiceHandlers extends grpc.UntypedServiceImplementation {
  Close: grpc.handleUnaryCall<_gauntlet_env_v1_CloseRequest__Output, _gauntlet_env_v1_CloseReply>;
  
  /**
   * Resets the session named by session_id; an empty session_id opens a new session (close it).
   */
  Reset: grpc.handleUnaryCall<_gauntlet_env_v1_ResetRequest__Output, _gauntlet_env_v1_ResetReply>;
  
  /**
   * One stream = one session. The server sends initial metadata `x-session-id` once the session
   * is open (capacity is checked first). Per-request errors come back as SessionReply.error and
   * the stream goes on; a half-close or a `close` request ends the session.
   */
  Session: grpc.handleBidiStreamingCall<_gauntlet_env_v1_SessionRequest__Output, _gauntlet_env_v1_SessionReply>;
  
  State: grpc.handleUnaryCall<_gauntlet_env_v1_StateRequest__Output, _gauntlet_env_v1_State>;
  
  /**
   * The step timeout is min(timeout_s, the call's deadline).
   */
  Step: grpc.handleUnaryCall<_gauntlet_env_v1_StepRequest__Output, _gauntlet_env_v1_StepResult>;
  
}

export interface EnvServiceDefinition extends grpc.ServiceDefinition {
  Close: MethodDefinition<_gauntlet_env_v1_CloseRequest, _gauntlet_env_v1_CloseReply, _gauntlet_env_v1_CloseRequest__Output, _gauntlet_env_v1_CloseReply__Output>
  Reset: MethodDefinition<_gauntlet_env_v1_ResetRequest, _gauntlet_env_v1_ResetReply, _gauntlet_env_v1_ResetRequest__Output, _gauntlet_env_v1_ResetReply__Output>
  Session: MethodDefinition<_gauntlet_env_v1_SessionRequest, _gauntlet_env_v1_SessionReply, _gauntlet_env_v1_SessionRequest__Output, _gauntlet_env_v1_SessionReply__Output>
  State: MethodDefinition<_gauntlet_env_v1_StateRequest, _gauntlet_env_v1_State, _gauntlet_env_v1_StateRequest__Output, _gauntlet_env_v1_State__Output>
  Step: MethodDefinition<_gauntlet_env_v1_StepRequest, _gauntlet_env_v1_StepResult, _gauntlet_env_v1_StepRequest__Output, _gauntlet_env_v1_StepResult__Output>
}
