// Original file: env.proto


export interface ElementProperties {
  'visibility'?: (number | string);
  /**
   * [x, y, width, height]; empty = null (not rendered).
   */
  'bbox'?: (number | string)[];
  'clickable'?: (boolean);
  'set_of_marks'?: (boolean);
}

export interface ElementProperties__Output {
  'visibility': (number);
  /**
   * [x, y, width, height]; empty = null (not rendered).
   */
  'bbox': (number)[];
  'clickable': (boolean);
  'set_of_marks': (boolean);
}
