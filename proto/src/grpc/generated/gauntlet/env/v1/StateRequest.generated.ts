// Original file: env.proto


export interface StateRequest {
  'session_id'?: (string);
}

export interface StateRequest__Output {
  'session_id': (string);
}
