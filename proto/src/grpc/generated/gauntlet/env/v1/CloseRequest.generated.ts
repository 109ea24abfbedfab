// Original file: env.proto


export interface CloseRequest {
  'session_id'?: (string);
}

export interface CloseRequest__Output {
  'session_id': (string);
}
