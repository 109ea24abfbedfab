// Original file: env.proto


export interface ActionSet {
  'subsets'?: (string)[];
  'strict'?: (boolean);
  'multi_action'?: (boolean);
  '_strict'?: "strict";
  '_multi_action'?: "multi_action";
}

export interface ActionSet__Output {
  'subsets': (string)[];
  'strict'?: (boolean);
  'multi_action'?: (boolean);
  '_strict'?: "strict";
  '_multi_action'?: "multi_action";
}
