export {
  ENV_PROTO_PATH,
  ENV_SERVICE_NAME,
  LOADER_OPTIONS,
  envGrpc,
  envMessageCodec,
  envPackageDefinition,
  envServiceDefinition,
} from './definition.js';
export type { MessageCodec } from './codec.js';
export { stepResultFromMessage, stepResultToMessage, stateFromMessage, stateToMessage } from './convert-result.js';
export {
  resetRequestToMessage,
  resetBodyFromMessage,
  stepRequestToMessage,
  stepBodyFromMessage,
  errorToMessage,
  errorFromMessage,
} from './convert-requests.js';
export { toStruct, fromStruct } from './struct.js';
export { GRPC_STATUS, ERROR_METADATA, SESSION_ID_METADATA, statusForError, errorFromStatus } from './status.js';
export type * as messages from './messages.js';
