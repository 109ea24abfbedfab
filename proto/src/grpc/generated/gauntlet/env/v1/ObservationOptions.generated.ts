// Original file: env.proto


export interface ObservationOptions {
  'axtree'?: (boolean);
  'pruned_html'?: (boolean);
  'extra_properties'?: (boolean);
  /**
   * "none" | "rgb" | "png" | "jpeg"; validated with the JSON schema.
   */
  'screenshot'?: (string);
  /**
   * The task oracle's next action in browsergym_info.oracle_action (null when it has none).
   */
  'oracle_action'?: (boolean);
  '_axtree'?: "axtree";
  '_pruned_html'?: "pruned_html";
  '_extra_properties'?: "extra_properties";
  '_screenshot'?: "screenshot";
  '_oracle_action'?: "oracle_action";
}

export interface ObservationOptions__Output {
  'axtree'?: (boolean);
  'pruned_html'?: (boolean);
  'extra_properties'?: (boolean);
  /**
   * "none" | "rgb" | "png" | "jpeg"; validated with the JSON schema.
   */
  'screenshot'?: (string);
  /**
   * The task oracle's next action in browsergym_info.oracle_action (null when it has none).
   */
  'oracle_action'?: (boolean);
  '_axtree'?: "axtree";
  '_pruned_html'?: "pruned_html";
  '_extra_properties'?: "extra_properties";
  '_screenshot'?: "screenshot";
  '_oracle_action'?: "oracle_action";
}
