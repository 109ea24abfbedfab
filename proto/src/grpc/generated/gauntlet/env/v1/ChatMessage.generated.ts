// Original file: env.proto


export interface ChatMessage {
  'role'?: (string);
  'timestamp'?: (number | string);
  'message'?: (string);
}

export interface ChatMessage__Output {
  'role': (string);
  'timestamp': (number);
  'message': (string);
}
