// Original file: env.proto


/**
 * metadata.screenshot_encoded; JSON carries `base64`, gRPC the bytes themselves.
 */
export interface EncodedScreenshot {
  'format'?: (string);
  'width'?: (number);
  'height'?: (number);
  'data'?: (Buffer | Uint8Array | string);
}

/**
 * metadata.screenshot_encoded; JSON carries `base64`, gRPC the bytes themselves.
 */
export interface EncodedScreenshot__Output {
  'format': (string);
  'width': (number);
  'height': (number);
  'data': (Buffer);
}
