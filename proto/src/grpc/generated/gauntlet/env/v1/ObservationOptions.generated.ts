// Original file: env.proto


export interface ObservationOptions {
  'axtree'?: (boolean);
  'pruned_html'?: (boolean);
  'extra_properties'?: (boolean);
  /**
   * "none" | "rgb" | "png" | "jpeg"; validated with the JSON schema.
   */
  'screenshot'?: (string);
  '_axtree'?: "axtree";
  '_pruned_html'?: "pruned_html";
  '_extra_properties'?: "extra_properties";
  '_screenshot'?: "screenshot";
}

export interface ObservationOptions__Output {
  'axtree'?: (boolean);
  'pruned_html'?: (boolean);
  'extra_properties'?: (boolean);
  /**
   * "none" | "rgb" | "png" | "jpeg"; validated with the JSON schema.
   */
  'screenshot'?: (string);
  '_axtree'?: "axtree";
  '_pruned_html'?: "pruned_html";
  '_extra_properties'?: "extra_properties";
  '_screenshot'?: "screenshot";
}
