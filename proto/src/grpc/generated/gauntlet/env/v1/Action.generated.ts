// Original file: env.proto

import type { Struct as _google_protobuf_Struct, Struct__Output as _google_protobuf_Struct__Output } from '../../../google/protobuf/Struct.generated.js';

export interface Action {
  'action_str'?: (string);
  'metadata'?: (_google_protobuf_Struct | null);
}

export interface Action__Output {
  'action_str': (string);
  'metadata': (_google_protobuf_Struct__Output | null);
}
