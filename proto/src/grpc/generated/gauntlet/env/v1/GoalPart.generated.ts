// Original file: env.proto


export interface GoalPart {
  'type'?: (string);
  'text'?: (string);
}

export interface GoalPart__Output {
  'type': (string);
  'text': (string);
}
