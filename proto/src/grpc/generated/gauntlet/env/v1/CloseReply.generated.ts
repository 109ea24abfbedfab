// Original file: env.proto


export interface CloseReply {
  'closed'?: (boolean);
}

export interface CloseReply__Output {
  'closed': (boolean);
}
