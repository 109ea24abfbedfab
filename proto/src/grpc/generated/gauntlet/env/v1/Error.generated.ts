// Original file: env.proto

import type { Struct as _google_protobuf_Struct, Struct__Output as _google_protobuf_Struct__Output } from '../../../google/protobuf/Struct.generated.js';

/**
 * A typed error: `name` is the class name rebuilt by errorFromWire on the other side.
 */
export interface Error {
  'name'?: (string);
  'message'?: (string);
  'code'?: (string);
  'details'?: (_google_protobuf_Struct | null);
}

/**
 * A typed error: `name` is the class name rebuilt by errorFromWire on the other side.
 */
export interface Error__Output {
  'name': (string);
  'message': (string);
  'code': (string);
  'details': (_google_protobuf_Struct__Output | null);
}
